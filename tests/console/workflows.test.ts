import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { launchBrowser, newContext, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { insertMember } from '../support/fixtures.ts';
import { pollUntil } from '../support/poll.ts';

let server: ConsoleServer;
let browser: Browser;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let deployId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'build.sh': `echo built\nprintf '{"image_tag":"7.1"}' > "$SEMAPHORE_OUTPUTS_FILE"\n`, 'deploy.sh': 'echo "deploying $*"\n' }, 'build.sh', 'Build');
  deployId = (await fx.addTemplate('Deploy', 'deploy.sh')).id;
  await insertMember(server.deps.db, fx.project.id, 'approver', 'task_runner', 'approver-password-1');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function createWorkflow(fourEyes: boolean): Promise<{ id: number; approvalNode: number }> {
  const api = await adminApi(server);
  const wf = await api.send<{ id: number; nodes: { id: number; kind: string }[] }>('POST', `/api/project/${fx.project.id}/workflows`, {
    name: `Ship ${Math.random().toString(36).slice(2, 7)}`,
    nodes: [
      { id: 1, kind: 'task', name: 'build', template_id: fx.template.id },
      { id: 2, kind: 'approval', name: 'go live?', approval_message: 'Check staging first', approval_four_eyes: fourEyes },
      { id: 3, kind: 'task', name: 'deploy', template_id: deployId },
    ],
    edges: [{ source_node_id: 1, destination_node_id: 2 }, { source_node_id: 2, destination_node_id: 3 }],
  });
  return { id: wf.id, approvalNode: wf.nodes.find((n) => n.kind === 'approval')!.id };
}

describe('workflow pages over plain HTTP (no JavaScript)', () => {
  it('lists workflows, runs one from the list and shows the run as SVG that refreshes itself while active; approves from the page', async () => {
    const wf = await createWorkflow(false);
    const client = createClient(server.url);
    await client.signIn();
    const list = await client.get(`/project/${fx.project.id}/workflows`);
    expect(list.status).toBe(200);
    expect(list.html).toContain(`data-workflow="${wf.id}"`);
    const started = await client.post(`/project/${fx.project.id}/workflows`, { _form: 'run', id: String(wf.id) });
    expect(started.status).toBe(303);
    expect(started.location).toMatch(new RegExp(`^/project/${fx.project.id}/workflows/${wf.id}/runs/\\d+$`));
    const runPath = started.location!;
    const waiting = await pollUntil(() => client.get(runPath), (r) => r.html.includes('data-status="approval"'));
    expect(waiting.html).toContain('<svg class="wf-graph wf-graph-wide"');
    expect(waiting.html).toMatch(/<noscript><meta http-equiv="refresh" content="5"/);
    expect(waiting.html).toContain('Check staging first');
    expect(waiting.html).toContain('Outputs: 1');

    const approver = createClient(server.url);
    await approver.signIn('approver', 'approver-password-1');
    const decided = await approver.post(runPath, { _form: 'decide', node: String(wf.approvalNode), decision: 'approved', comment: 'staging is fine' });
    expect(decided.status).toBe(303);
    expect(decided.location).toContain('flash=workflow_approval_decided');
    const done = await pollUntil(() => client.get(runPath), (r) => r.html.includes('data-status="success"') && !r.html.includes('http-equiv="refresh"'));
    expect(done.html).toContain('staging is fine');
    expect(done.html).toContain('approver');
  }, 120_000);
});

describe('workflow journey in Chromium', () => {
  async function signInAs(page: Page, login: string, password: string, next: string) {
    await page.goto(`${server.url}/auth/login?next=${encodeURIComponent(next)}`);
    await page.fill('input[name=auth]', login);
    await page.fill('input[name=password]', password);
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/auth/')), page.click('button[type=submit]')]);
  }

  it('builds a workflow in the editor, runs it, is refused as the starter under four eyes, and watches the graph move when a second user approves', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server.url, `/project/${fx.project.id}/workflows/new/edit`);
    await page.waitForSelector('.wfe-palette');
    await page.fill('input[name=name]', 'Built in the editor');

    await page.click('button[data-add=task]');
    await page.fill('.wfe-panel [data-field=name]', 'build');
    await page.selectOption('.wfe-panel [data-field=template_id]', String(fx.template.id));
    await page.click('button[data-add=approval]');
    await page.fill('.wfe-panel [data-field=name]', 'gate');
    await page.check('.wfe-panel [data-field=approval_four_eyes]');
    // two start nodes until they are connected: the server's Problems list says so
    await page.waitForSelector('.wfe-problems li:has-text("second start node")');

    // connect: press on the first node's out handle, move to the second node's in handle, release
    const a = (await page.locator('.react-flow__node[data-id="1"] .react-flow__handle.source').boundingBox())!;
    const b = (await page.locator('.react-flow__node[data-id="2"] .react-flow__handle.target').boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
    // attached, not visible: an edge between two steps side by side is a flat line (no height)
    await page.waitForSelector('.react-flow__edge', { state: 'attached' });
    await page.waitForSelector('.wfe-problems:has-text("No problems")');
    const violations = (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations.filter((v) => v.impact === 'critical');
    expect(violations.map((v) => v.id)).toEqual([]);

    await Promise.all([page.waitForURL(/\/workflows\/\d+\?flash=workflow_saved/), page.click('main form.workflow-form > button[type=submit]')]);
    const wid = Number(new URL(page.url()).pathname.split('/')[4]);
    const saved = await (await adminApi(server)).get<{ nodes: { kind: string; approval_four_eyes: boolean }[]; edges: unknown[] }>(`/api/project/${fx.project.id}/workflows/${wid}`);
    expect(saved.nodes.map((n) => n.kind)).toEqual(['task', 'approval']);
    expect(saved.nodes[1]!.approval_four_eyes).toBe(true);
    expect(saved.edges).toHaveLength(1);

    // Run asks first
    await Promise.all([page.waitForURL(/[?&]run=\d+/), page.click('main a[role=button]:has-text("Run")')]);
    await Promise.all([page.waitForURL(/\/runs\/\d+$/), page.click('dialog.workflow-run-dialog button[type=submit]')]);
    const runPath = new URL(page.url()).pathname;
    // live: the page moves to the approval without a reload
    await page.waitForSelector('.wf-node[data-status="approval"]', { timeout: 60_000 });
    await page.fill('.wf-decision textarea[name=comment]', 'mine');
    await Promise.all([page.waitForURL(/flash=res_action_failed/), page.click('.wf-decision button[value=approved]')]);
    expect(await page.textContent('.snackbar')).toContain('four eyes');

    const other = await (await newContext(browser)).newPage();
    await signInAs(other, 'approver', 'approver-password-1', runPath);
    await other.fill('.wf-decision textarea[name=comment]', 'second pair of eyes');
    await Promise.all([other.waitForURL(/flash=workflow_approval_decided/), other.click('.wf-decision button[value=approved]')]);

    // the starter's page follows over the websocket
    await page.waitForSelector('#wf-live[data-status="success"]', { timeout: 60_000 });
    expect(await page.locator('.wf-node[data-status="success"]:visible').count()).toBe(2);
    await other.context().close();

    // the build task's dialog lists its outputs
    const runId = Number(runPath.split('/').at(-1));
    const run = await (await adminApi(server)).get<{ nodes: { node: { kind: string }; task: { id: number } | null }[] }>(`/api/project/${fx.project.id}/workflows/${wid}/runs/${runId}`);
    const buildTask = run.nodes.find((n) => n.node.kind === 'task')!.task!.id;
    await page.goto(`${server.url}/project/${fx.project.id}/history?t=${buildTask}&tab=details`);
    await page.waitForSelector('.task-outputs td:has-text("image_tag")');
    expect(await page.textContent('.task-outputs')).toContain('"7.1"');
    await page.goto(`${server.url}${runPath}`);

    // 375 px wide: the run is readable, the graph drawn top to bottom inside its frame
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await context.close();
  }, 180_000);
});
