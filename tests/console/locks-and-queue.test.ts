import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { insertTask } from '../support/project-rows.ts';

/**
 * The project's Locks screen and Queue view (issue 48): locks created, given a capacity and
 * deleted through the form loop, each saying which task holds it and how many wait; the queue in
 * the order the claim takes it, with each task's priority and why it waits. 1280 and 375 px, light
 * and dark.
 */
let server: ConsoleServer;
let browser: Browser;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let pid: number;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  api = await adminApi(server);
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
  pid = fx.project.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(width: number, theme: 'light' | 'dark'): Promise<{ page: Page; context: BrowserContext }> {
  const context = await newContext(browser);
  await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, server.url, `/project/${pid}/queue`);
  return { page, context };
}
const submit = (page: Page, url: RegExp) => Promise.all([page.waitForURL(url), page.click('dialog form button[type=submit]')]);
const locks = () => server.deps.db.selectFrom('project_lock').selectAll().where('project_id', '=', pid).orderBy('id').execute();

describe('locks and queue screens', { timeout: 300_000 }, () => {
  it('creates a lock, refuses a bad capacity under its field, edits the capacity and deletes it', async () => {
    const { page, context } = await openPage(1280, 'light');
    await page.goto(`${server.url}/project/${pid}/queue`);
    await Promise.all([page.waitForURL(/\/locks$/), page.click('main a:has-text("Locks")')]);
    expect(await page.textContent('main')).toContain('No locks yet.');
    await Promise.all([page.waitForURL(/edit=new/), page.click('text=New lock')]);
    await page.fill('input[name=name]', 'db-migrations');
    await page.fill('input[name=capacity]', '0');
    await submit(page, /edit=new/);
    expect(await page.textContent('[data-field=capacity] .field-error')).toBe('How many tasks may hold it at once: 1 to 1000');
    expect(await page.inputValue('input[name=name]')).toBe('db-migrations');
    await page.fill('input[name=capacity]', '2');
    await submit(page, /flash=lock_saved/);
    expect(await page.textContent('.snackbar')).toContain('Lock db-migrations saved');
    const [row] = await locks();
    expect(row).toMatchObject({ name: 'db-migrations', capacity: 2 });
    expect(await page.textContent(`tr[data-lock="${row!.id}"]`)).toContain('0 of 2');

    await Promise.all([page.waitForURL(/edit=\d+/), page.click(`tr[data-lock="${row!.id}"] >> text=Edit`)]);
    expect(await page.inputValue('input[name=capacity]')).toBe('2');
    await page.fill('input[name=capacity]', '3');
    await submit(page, /flash=lock_saved/);
    expect((await locks())[0]).toMatchObject({ capacity: 3 });

    await Promise.all([page.waitForURL(/delete=\d+/), page.click(`tr[data-lock="${row!.id}"] >> text=Delete`)]);
    await Promise.all([page.waitForURL(/flash=lock_deleted/), page.click('dialog button[type=submit]')]);
    expect(await locks()).toEqual([]);
    await context.close();
  });

  it('shows who holds a lock, what waits, and the queue in claim order with priorities and reasons', async () => {
    const lock = await api.send<{ id: number }>('POST', `/api/project/${pid}/locks`, { name: 'prod', capacity: 1 });
    await server.deps.db.insertInto('template_lock').values({ template_id: fx.template.id, lock_id: lock.id }).execute();
    await server.deps.db.updateTable('template').set({ allow_parallel_tasks: 1 }).where('id', '=', fx.template.id).execute();
    const holder = await insertTask(server.deps.db, { projectId: pid, templateId: fx.template.id, status: 'running' });
    const low = await api.runTask(pid, { template_id: fx.template.id, priority: 'low' });
    const normal = await api.runTask(pid, { template_id: fx.template.id });
    const high = await api.runTask(pid, { template_id: fx.template.id, priority: 'high' });
    // the engine says why each one waits
    await expect.poll(async () => (await server.deps.db.selectFrom('task').select('waiting_for').where('id', 'in', [low, normal, high]).execute())
      .every((t) => t.waiting_for !== null), { timeout: 60_000 }).toBe(true);

    for (const width of [1280, 375]) {
      for (const theme of ['light', 'dark'] as const) {
        const { page, context } = await openPage(width, theme);
        await page.goto(`${server.url}/project/${pid}/queue`);
        const order = await page.locator('tr[data-queued]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-queued'))));
        expect(order).toEqual([high, normal, low]);
        const cells = async (id: number) => (await page.locator(`tr[data-queued="${id}"] td`).allTextContents()).map((s) => s.trim());
        expect((await cells(high)).slice(0, 4)).toEqual(['1', `#${high} ${fx.template.name}`, 'High', `Waiting for lock prod held by task #${holder.id}`]);
        expect((await cells(low))[2]).toBe('Low');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `queue-${width}-${theme}`);

        await page.goto(`${server.url}/project/${pid}/locks`);
        const row = page.locator(`tr[data-lock="${lock.id}"]`);
        expect(await row.locator('.lock-holders').textContent()).toBe(`#${holder.id}`);
        expect(await row.locator('.lock-waiting').textContent()).toBe('3');
        expect(await row.textContent()).toContain('1 of 1');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `locks-${width}-${theme}`);
        await context.close();
      }
    }
  });
});
