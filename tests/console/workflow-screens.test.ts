// Issue 46 item 4, the workflow screens as a person meets them: an approval comment typed while
// the run page refreshes live is kept; the editor places each new step where it can be seen,
// shows "Start when" whole, a quiet Remove, keeps typed numbers as typed; a run starts only after
// a confirmation; the run graph is readable in the dark theme and whole on a phone; the German
// run page says why a step ended in German. Screenshots at 375 and 1280 px in both themes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { pollUntil } from '../support/poll.ts';

let server: ConsoleServer;
let browser: Browser;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  api = await adminApi(server);
  fx = await insertScriptProject(server, { 'build.sh': 'echo built\n' }, 'build.sh', 'Build');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function page(width: number, theme: 'light' | 'dark' = 'light', lang = 'en'): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'theme', value: theme, url: server.url }, { name: 'lang', value: lang, url: server.url }]);
  const p = await context.newPage();
  await signIn(p, server.url, '/');
  return p;
}

/** A workflow of `nodes` chained in order, as the API takes it. */
async function workflow(nodes: Record<string, unknown>[]): Promise<number> {
  const edges = nodes.slice(1).map((_, i) => ({ source_node_id: i + 1, destination_node_id: i + 2 }));
  const created = await api.send<{ id: number }>('POST', `/api/project/${fx.project.id}/workflows`, {
    name: `Release ${Math.random().toString(36).slice(2, 7)}`, nodes: nodes.map((n, i) => ({ id: i + 1, ...n })), edges,
  });
  return created.id;
}

interface RunDetails { run: { status: string }; nodes: { node: { id: number; kind: string }; state: { status: string }; approval: { status: string; comment: string } | null }[] }
const runApi = (wid: number, rid: number) => `/api/project/${fx.project.id}/workflows/${wid}/runs/${rid}`;
const runPage = (wid: number, rid: number) => `${server.url}/project/${fx.project.id}/workflows/${wid}/runs/${rid}`;

async function startRun(wid: number): Promise<number> {
  return (await api.send<{ id: number }>('POST', `/api/project/${fx.project.id}/workflows/${wid}/run`)).id;
}

describe('workflow run page', () => {
  it('keeps an approval comment being typed while the page refreshes live, focus and all', async () => {
    const wid = await workflow([{ kind: 'approval', name: 'Go live?' }, { kind: 'task', name: 'deploy', template_id: fx.template.id }]);
    const rid = await startRun(wid);
    await pollUntil(() => api.get<RunDetails>(runApi(wid, rid)), (d) => d.nodes[0]!.state.status === 'approval');
    const p = await page(1280);
    await p.goto(runPage(wid, rid));
    const comment = p.locator('.wf-decision textarea[name=comment]');
    await comment.click();
    await p.keyboard.type('staging looks fine, ');
    // a live refresh while the person types: the run changed (here: announced as if it had)
    await p.evaluate(() => { document.getElementById('wf-live')!.dataset.before = '1'; });
    server.deps.bus.publish({ type: 'workflow', project_id: fx.project.id, workflow_id: wid, run_id: rid, status: 'approval', due: null });
    await p.waitForSelector('#wf-live:not([data-before])');
    // the person goes on typing where they were
    await p.keyboard.type('ship it');
    expect(await comment.inputValue()).toBe('staging looks fine, ship it');
    await Promise.all([p.waitForURL(/flash=workflow_approval_decided/), p.click('.wf-decision button[value=approved]')]);
    const details = await api.get<RunDetails>(runApi(wid, rid));
    expect(details.nodes[0]!.approval).toMatchObject({ status: 'approved', comment: 'staging looks fine, ship it' });
    await p.context().close();
  }, 120_000);

  it('draws the graph readably in the dark theme and whole at 375 px; shows why a step ended in German', async () => {
    const wid = await workflow([{ kind: 'task', name: 'build', template_id: fx.template.id }, { kind: 'approval', name: 'Go live?' }, { kind: 'task', name: 'deploy', template_id: fx.template.id }]);
    const rid = await startRun(wid);
    const waiting = await pollUntil(() => api.get<RunDetails>(runApi(wid, rid)), (d) => d.nodes[1]!.state.status === 'approval');
    await api.send('POST', `${runApi(wid, rid)}/approvals/${waiting.nodes[1]!.node.id}`, { status: 'rejected', comment: 'not today' });
    await pollUntil(() => api.get<RunDetails>(runApi(wid, rid)), (d) => d.run.status === 'failed');

    for (const theme of ['light', 'dark'] as const) {
      for (const width of [375, 1280]) {
        const p = await page(width, theme);
        await p.goto(runPage(wid, rid));
        // every word of every box against the box behind it: WCAG AA (4.5:1). (Each look is one
        // evaluation: the live page may swap its graph for a fresh render between two.)
        const contrasts = await p.evaluate(() => {
          const nodes = [...document.querySelectorAll('.wf-graph .wf-node')];
          const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
          const lum = (c: string) => {
            const [r, g, b] = rgb(c).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
            return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
          };
          return nodes.filter((n) => (n as SVGGElement).getBBox().width > 0 && n.closest('svg')!.checkVisibility()).flatMap((n) => {
            const box = getComputedStyle(n.querySelector('rect')!).fill;
            return [...n.querySelectorAll<SVGTextElement>(':scope text, :scope a > text')].filter((t) => t.textContent).map((t) => {
              const [a, b] = [lum(getComputedStyle(t).fill), lum(box)].sort((x, y) => y - x);
              return { text: t.textContent, ratio: Math.round(((a! + 0.05) / (b! + 0.05)) * 10) / 10 };
            });
          });
        });
        expect(contrasts.length, `${theme} ${width}`).toBeGreaterThan(5);
        expect(contrasts.filter((c) => c.ratio < 4.5), `${theme} ${width}`).toEqual([]);
        // the whole graph in its frame: no step cut off, nothing to scroll sideways
        const fit = await p.evaluate(() => {
          const wrap = document.querySelector('.wf-graph-wrap')!;
          const frame = wrap.getBoundingClientRect();
          const boxes = [...wrap.querySelectorAll('.wf-node rect')].filter((r) => r.closest('svg')!.checkVisibility()).map((r) => r.getBoundingClientRect());
          return { boxes: boxes.length, outside: boxes.filter((b) => b.left < frame.left - 1 || b.right > frame.right + 1).length, scroll: wrap.scrollWidth - wrap.clientWidth };
        });
        expect(fit, `${theme} ${width}`).toEqual({ boxes: 3, outside: 0, scroll: 0 });
        await screenshot(p, `workflow-run-${width}-${theme}`);
        await p.context().close();
      }
    }

    const de = await page(1280, 'light', 'de');
    await de.goto(runPage(wid, rid));
    const text = (await de.textContent('main'))!;
    for (const english of ['task success', 'rejected', 'Run started by', 'waits for approval', 'Run failed']) expect(text).not.toContain(english);
    expect(text).toContain('Aufgabe beendet: Erfolgreich');
    expect(text).toContain('Abgelehnt');
    expect(text).toContain('Lauf gestartet von admin');
    expect(text).toContain('Go live? abgelehnt von admin: not today');
    await screenshot(de, 'workflow-run-de-1280');
    await de.context().close();
  }, 240_000);
});

describe('workflow editor', () => {
  it('places each new step in view, shows "Start when" whole and a quiet Remove, and keeps a typed number as typed until it reads', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const p = await page(width, theme);
        const errors: string[] = [];
        p.on('pageerror', (e) => errors.push(e.message));
        await p.goto(`${server.url}/project/${fx.project.id}/workflows/new/edit`);
        await p.waitForSelector('.wfe-palette');
        await p.fill('input[name=name]', `Placed ${theme} ${width}`);
        for (const kind of ['task', 'approval', 'delay']) await p.click(`button[data-add=${kind}]`);
        await p.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 3);
        // wait for a zoom-to-fit to settle, if the canvas needed one
        await p.waitForTimeout(300);
        const placed = await p.$$eval('.react-flow__node', (nodes) => {
          const canvas = document.querySelector('.wfe-canvas')!.getBoundingClientRect();
          return nodes.map((n) => n.getBoundingClientRect()).map((b) => b.left >= canvas.left && b.right <= canvas.right && b.top >= canvas.top && b.bottom <= canvas.bottom);
        });
        expect(placed, `${theme} ${width}`).toEqual([true, true, true]);

        // "Start when" and its two choices, each whole
        const choice = p.locator('.wfe-panel [data-field=convergence_mode]');
        expect(await choice.textContent()).toContain('all connections into it are taken');
        expect(await choice.textContent()).toContain('any connection into it is taken');
        const clipped = await choice.locator('label').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth + 1 || l.getBoundingClientRect().right > l.closest('.wfe-panel')!.getBoundingClientRect().right + 1).length);
        expect(clipped).toBe(0);
        // Remove: a quiet button its own size, not the panel's width
        const remove = p.locator('.wfe-panel .wfe-remove');
        expect(await remove.getAttribute('class')).not.toContain('primary');
        const [removeBox, panelBox] = [await remove.boundingBox(), await p.locator('.wfe-panel').boundingBox()];
        expect(removeBox!.width).toBeLessThan(panelBox!.width / 2);

        // a delay of -5 seconds: kept as typed, said beside the field, the form not saved
        const wait = p.locator('.wfe-panel [data-field=delay_seconds]');
        await wait.fill('');
        await wait.pressSequentially('-5');
        expect(await wait.inputValue()).toBe('-5');
        expect(await p.locator('.wfe-panel .field-error').textContent()).toBe('Must be an integer, 1 or greater');
        await screenshot(p, `workflow-editor-${width}-${theme}`);
        const before = (await api.get<unknown[]>(`/api/project/${fx.project.id}/workflows`)).length;
        await p.click('main form.workflow-form > button[type=submit]');
        expect(new URL(p.url()).pathname).toMatch(/\/workflows\/new\/edit$/);
        expect((await api.get<unknown[]>(`/api/project/${fx.project.id}/workflows`)).length).toBe(before);
        await wait.fill('90');
        expect(await p.locator('.wfe-panel .field-error').count()).toBe(0);
        const graph = JSON.parse((await p.locator('input[name=graph]').inputValue()) as string) as { nodes: { kind: string; delay_seconds?: number }[] };
        expect(graph.nodes.find((n) => n.kind === 'delay')!.delay_seconds).toBe(90);
        expect(errors).toEqual([]);
        await p.context().close();
      }
    }
  }, 240_000);

  it('asks before a run starts, from the workflow page and from the list', async () => {
    const wid = await workflow([{ kind: 'task', name: 'build', template_id: fx.template.id }]);
    const runs = () => api.get<unknown[]>(`/api/project/${fx.project.id}/workflows/${wid}/runs`);
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const p = await page(width, theme);
        await p.goto(`${server.url}/project/${fx.project.id}/workflows/${wid}`);
        await p.click('main a[role=button]:has-text("Run")');
        await p.waitForSelector('dialog.workflow-run-dialog');
        expect(await runs()).toHaveLength(0);
        await screenshot(p, `workflow-run-confirm-${width}-${theme}`, { fullPage: false });
        await p.click('dialog.workflow-run-dialog a:has-text("Cancel")');
        await p.waitForFunction(() => !document.querySelector('dialog.workflow-run-dialog'));
        expect(await runs()).toHaveLength(0);
        await p.context().close();
      }
    }
    const p = await page(1280);
    await p.goto(`${server.url}/project/${fx.project.id}/workflows`);
    await p.click(`[data-run-workflow="${wid}"]`);
    await Promise.all([p.waitForURL(/\/runs\/\d+$/), p.click('dialog.workflow-run-dialog button[type=submit]')]);
    expect(await runs()).toHaveLength(1);
    await p.context().close();
  }, 240_000);
});
