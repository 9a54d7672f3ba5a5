import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { measurePageJs } from './support/js-weight.ts';
import { adminApi, insertFinishedTask, insertScriptProject, waitForTask } from './support/real-tasks.ts';
import { hasStatus } from '../support/engine.ts';
import { LOG_ROW_PX, OVERSCAN_ROWS } from '../../src/islands/task-log-model.ts';

const LINES = 200_000;
/** Inserting and reading 200,000 lines takes a while on a loaded 2-core machine. */
const SLOW_MS = 120_000;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
/** the 200,000-line task of the first test */
let longTaskId = 0;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  api = await adminApi(server);
  fx = await insertScriptProject(server, { 'live.sh': 'seq -f "early line %g" 1 300\nfor i in $(seq 1 20); do echo "live line $i"; sleep 0.3; done\n' }, 'live.sh');
  const page = await context.newPage();
  await signIn(page, server.url, '/');
  await page.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a task's dialog and waits for the island; `outputRequests` lists the `/output` URLs the browser asks for. */
async function openTask(taskId: number, width = 1280): Promise<{ page: Page; outputRequests: string[]; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 800 });
  const outputRequests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/output')) outputRequests.push(r.url()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/project/${fx.project.id}/history?t=${taskId}`);
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
  return { page, outputRequests, errors };
}

/** Rows fully inside the log's visible area: [line number column, text]. */
const visibleRows = (page: Page) => page.$eval('.log', (log) => {
  const box = log.getBoundingClientRect();
  return [...log.querySelectorAll('.log-row')]
    .filter((row) => { const r = row.getBoundingClientRect(); return r.top >= box.top - 1 && r.bottom <= box.bottom + 1; })
    .map((row) => [row.querySelector('.log-no')?.textContent ?? '', row.lastElementChild?.textContent ?? '']);
});

describe('task log: any line of a long log', () => {
  it(`opens a finished ${LINES.toLocaleString('en')}-line task at its start, and End shows the last line with at most 3 /output requests`, async () => {
    const taskId = await insertFinishedTask(server, fx, LINES);
    longTaskId = taskId;
    const { page, outputRequests, errors } = await openTask(taskId);
    const first = await visibleRows(page);
    expect(first[0]).toEqual(['1', 'line 1']);
    expect(outputRequests).toEqual([]);

    await page.focus('.log');
    await page.keyboard.press('End');
    await page.waitForFunction((last) => [...document.querySelectorAll('.log-row')].some((r) => r.lastElementChild?.textContent === last), `line ${LINES}`);
    const end = await visibleRows(page);
    expect(end.at(-1)).toEqual([String(LINES), `line ${LINES}`]);
    expect(outputRequests.length).toBeGreaterThan(0);
    expect(outputRequests.length).toBeLessThanOrEqual(3);
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('scrolled to the middle, shows the lines of the middle with their right numbers; the jump button goes to the end', async () => {
    const [task] = await api.get<{ id: number }[]>(`/api/project/${fx.project.id}/tasks/last?limit=1`);
    const { page, errors } = await openTask(task!.id);
    await page.$eval('.log', (log) => { log.scrollTop = (log.scrollHeight - log.clientHeight) / 2; });
    await page.waitForFunction((half) => {
      const rows = [...document.querySelectorAll('.log-row')];
      return rows.some((r) => r.lastElementChild?.textContent === `line ${half}`) && rows.every((r) => r.lastElementChild?.textContent);
    }, LINES / 2);
    const rows = await visibleRows(page);
    expect(rows.length).toBeGreaterThan(10);
    for (const [number, text] of rows) expect(text).toBe(`line ${number}`);
    const middle = Number(rows[0]![0]);
    expect(Math.abs(middle - LINES / 2)).toBeLessThan(50);

    await page.click('.log-jump');
    await page.waitForFunction((last) => [...document.querySelectorAll('.log-row')].some((r) => r.lastElementChild?.textContent === last), `line ${LINES}`);
    expect((await visibleRows(page)).at(-1)).toEqual([String(LINES), `line ${LINES}`]);
    await page.waitForSelector('.log-jump', { state: 'detached' });
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('keeps only the rows near the screen in the page, at the end and in the middle', async () => {
    const taskId = await insertFinishedTask(server, fx, 20_000);
    const { page, errors } = await openTask(taskId);
    const rowsBound = await page.$eval('.log', (log, [rowPx, overscan]) => Math.ceil(log.clientHeight / rowPx) + 2 * overscan + 2, [LOG_ROW_PX, OVERSCAN_ROWS]);
    const rowCount = () => page.locator('.log-row').count();
    expect(await rowCount()).toBeLessThanOrEqual(rowsBound);
    await page.focus('.log');
    await page.keyboard.press('End');
    await page.waitForFunction(() => [...document.querySelectorAll('.log-row')].some((r) => r.lastElementChild?.textContent === 'line 20000'));
    expect(await rowCount()).toBeLessThanOrEqual(rowsBound);
    await page.$eval('.log', (log) => { log.scrollTop = log.scrollHeight / 2; });
    await page.waitForFunction(() => [...document.querySelectorAll('.log-row')].some((r) => r.lastElementChild?.textContent === 'line 10000'));
    expect(await rowCount()).toBeLessThanOrEqual(rowsBound);
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('windows its rows with @tanstack/react-virtual at 1280 and 375 px: End, a quarter down, only the rows near the screen, within 95 KB of gzip script', async () => {
    const pageJs = await measurePageJs(`${server.url}/project/${fx.project.id}/history?t=${longTaskId}`, api.cookie);
    expect(pageJs.bytes).toBeLessThanOrEqual(95 * 1024);
    // the rows are the library's: its virtualizer is in the page's script
    const code = await Promise.all(pageJs.modules.map(async (m) => (await fetch(m)).text()));
    expect(code.some((c) => c.includes('scrollMargin') && c.includes('getVirtualItems'))).toBe(true);
    for (const width of [1280, 375]) {
      const { page, outputRequests, errors } = await openTask(longTaskId, width);
      const rowsBound = await page.$eval('.log', (log, [rowPx, overscan]) => Math.ceil(log.clientHeight / rowPx) + 2 * overscan + 2, [LOG_ROW_PX, OVERSCAN_ROWS]);
      expect((await visibleRows(page))[0]).toEqual(['1', 'line 1']);
      await page.focus('.log');
      await page.keyboard.press('End');
      await page.waitForFunction((last) => [...document.querySelectorAll('.log-row')].some((r) => r.lastElementChild?.textContent === last), `line ${LINES}`);
      expect((await visibleRows(page)).at(-1)).toEqual([String(LINES), `line ${LINES}`]);
      expect(outputRequests.length).toBeLessThanOrEqual(3);
      expect(await page.locator('.log-row').count()).toBeLessThanOrEqual(rowsBound);
      await page.$eval('.log', (log) => { log.scrollTop = (log.scrollHeight - log.clientHeight) / 4; });
      await page.waitForFunction((quarter) => {
        const rows = [...document.querySelectorAll('.log-row')];
        return rows.some((r) => r.lastElementChild?.textContent === `line ${quarter}`) && rows.every((r) => r.lastElementChild?.textContent);
      }, LINES / 4);
      for (const [number, text] of await visibleRows(page)) expect(text).toBe(`line ${number}`);
      expect(await page.locator('.log-row').count()).toBeLessThanOrEqual(rowsBound);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `task-log-virtual-${width}`);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, SLOW_MS);

  it('follows a running task live: new lines show at the bottom as they are written', async () => {
    const taskId = await api.runTask(fx.project.id, { template_id: fx.template.id });
    await waitForTask(server.deps.db, taskId, hasStatus('running'));
    const { page, errors } = await openTask(taskId);
    await page.waitForFunction(() => [...document.querySelectorAll('.log-row')].some((r) => r.lastElementChild?.textContent === 'live line 20'), null, { timeout: 30_000 });
    expect((await waitForTask(server.deps.db, taskId)).status).toBe('success');
    await page.waitForSelector('dialog .task-log-facts .chip[data-status=success]', { timeout: 30_000 });
    // Rows exist only near the screen, and 300 early lines fill more than one: the view followed.
    const res = await fetch(`${server.url}/api/project/${fx.project.id}/tasks/${taskId}/output?offset=0&limit=1`, { headers: { cookie: api.cookie } });
    const total = Number(res.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(320);
    await page.waitForFunction((n) => [...document.querySelectorAll('.log-row .log-no')].some((c) => c.textContent === String(n)), total);
    const lastVisible = async () => (await visibleRows(page)).at(-1)![0];
    // The dialog's header settles as the task ends; the view keeps to the tail through it.
    await expect.poll(lastVisible, { timeout: 5_000 }).toBe(String(total));
    // A smaller window shrinks the log box: a view that follows the tail stays on it.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: size.width, height: size.height - 5 * LOG_ROW_PX - 7 });
    // the box's resize reaches the virtualiser through an observer and a render: waited for, not timed
    await expect.poll(lastVisible, { timeout: 5_000 }).toBe(String(total));
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);
});

describe('task log: hydration', () => {
  it('builds no Intl date formatter while a finished task\'s dialog hydrates (the first one costs tens of ms), and keeps the server\'s start text', async () => {
    const taskId = await insertFinishedTask(server, fx, 50);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { formattersBuilt: number };
      w.formattersBuilt = 0;
      for (const name of ['DateTimeFormat', 'RelativeTimeFormat'] as const) {
        const Original = Intl[name] as unknown as new (...args: unknown[]) => object;
        (Intl as unknown as Record<string, unknown>)[name] = function (...args: unknown[]) {
          w.formattersBuilt++;
          return new Original(...args);
        };
      }
    });
    const served = await (await page.request.get(`${server.url}/project/${fx.project.id}/history?t=${taskId}`)).text();
    const serverText = served.match(/task-log-facts[\s\S]*?<time [^>]*title="([^"]+)">([^<]+)<\/time>/);
    expect(serverText).not.toBeNull();
    await page.goto(`${server.url}/project/${fx.project.id}/history?t=${taskId}`);
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { formattersBuilt: number }).formattersBuilt)).toBe(0);
    const shown = await page.$eval('.task-log-facts time', (el) => [el.getAttribute('title'), el.textContent]);
    expect(shown).toEqual([serverText![1], serverText![2]]);
    await page.close();
  }, SLOW_MS);
});

describe('task log: keyboard', () => {
  it('shows a focus ring on the log when it is reached with Tab', async () => {
    const taskId = await insertFinishedTask(server, fx, 50);
    const { page } = await openTask(taskId);
    for (let i = 0; i < 30 && !(await page.evaluate(() => document.activeElement?.classList.contains('log'))); i++) await page.keyboard.press('Tab');
    const ring = await page.$eval('.log', (log) => ({ focused: log === document.activeElement, style: getComputedStyle(log).outlineStyle, width: getComputedStyle(log).outlineWidth }));
    expect(ring).toEqual({ focused: true, style: 'solid', width: '2px' });
    await page.close();
  }, SLOW_MS);
});
