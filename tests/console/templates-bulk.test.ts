// Issue #34 item 2 in the console: the template list's bulk bar. Each row has a box, the header a
// select-all box, and the bar (action, view for Move, Apply) is a plain form of the page: it works
// without JavaScript (the select-all box then chooses the whole page), returns to the list with a
// snackbar summing up the results, and asks before deleting. With JavaScript the select-all box
// ticks the rows, the bar counts them and shows the view only for Move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { insertMember } from '../support/fixtures.ts';
import { insertIntegration } from '../support/trigger-fixtures.ts';
import type { TestServer } from '../support/harness.ts';

let server: ConsoleServer;
let browser: Browser;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let viewId = 0;
const ids: Record<string, number> = {};

const list = () => `${server.url}/project/${fx.project.id}/templates?view=all`;
const row = (page: Page, name: string) => page.locator('tr[data-template]', { has: page.locator(`a.clamp[title="${name}"]`) });
const template = (id: number) => server.deps.db.selectFrom('template').selectAll().where('id', '=', id).executeTakeFirst();
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
const snackbar = (page: Page) => page.locator('.snackbar span').textContent();

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Alpha');
  ids.Alpha = fx.template.id;
  for (const name of ['Beta', 'Gamma', 'Hooked']) ids[name] = (await fx.addTemplate(name, 'run.sh')).id;
  const view = await server.deps.db.insertInto('view').values({ project_id: fx.project.id, title: 'Ops', position: 0, type: '', hidden: 0, sort_reverse: 0 })
    .returningAll().executeTakeFirstOrThrow();
  viewId = view.id;
  await insertIntegration(server as unknown as TestServer, fx.project.id, ids.Hooked!, { name: 'Push hook' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('template list bulk bar', () => {
  it('with JavaScript: select-all ticks the rows, the bar counts them, Move shows the view and moves the chosen ones', async () => {
    const page = await signedInPage(browser, server.url, 1280);
    await page.goto(list());
    const all = page.locator('input[data-bulk-all]');
    const count = page.locator('[data-bulk-count]');
    await expect.poll(() => count.textContent()).toBe('0 chosen');
    expect(await page.locator('[data-bulk-view]').isVisible()).toBe(false);
    await all.check();
    expect(await page.locator('input[data-bulk-row]:checked').count()).toBe(4);
    expect(await count.textContent()).toBe('4 chosen');
    await row(page, 'Alpha').locator('input[data-bulk-row]').uncheck();
    await row(page, 'Hooked').locator('input[data-bulk-row]').uncheck();
    expect(await all.evaluate((box: HTMLInputElement) => [box.checked, box.indeterminate])).toEqual([false, true]);
    expect(await count.textContent()).toBe('2 chosen');
    await page.selectOption('select[name=action]', 'move');
    expect(await page.locator('[data-bulk-view]').isVisible()).toBe(true);
    await page.selectOption('select[name=view_id]', String(viewId));
    await screenshot(page, 'templates-bulk-bar-1280');
    await Promise.all([page.waitForNavigation(), page.locator('#tpl-bulk button[type=submit]').click()]);
    expect(await snackbar(page)).toBe('2 moved');
    expect((await template(ids.Beta!))!.view_id).toBe(viewId);
    expect((await template(ids.Gamma!))!.view_id).toBe(viewId);
    expect((await template(ids.Alpha!))!.view_id).toBeNull();
    expect(await page.locator('input[data-bulk-row]:checked').count()).toBe(0);
    await page.context().close();
  }, 120_000);

  it('disables, greys the row, then a run starts the others and names the disabled one', async () => {
    const page = await signedInPage(browser, server.url, 1280);
    await page.goto(list());
    await row(page, 'Beta').locator('input[data-bulk-row]').check();
    await page.selectOption('select[name=action]', 'disable');
    await Promise.all([page.waitForNavigation(), page.locator('#tpl-bulk button[type=submit]').click()]);
    expect(await snackbar(page)).toBe('1 disabled');
    expect(await row(page, 'Beta').getAttribute('class')).toContain('tpl-disabled');
    expect((await template(ids.Beta!))!.disabled).toBe(1);

    await row(page, 'Alpha').locator('input[data-bulk-row]').check();
    await row(page, 'Beta').locator('input[data-bulk-row]').check();
    await page.selectOption('select[name=action]', 'run');
    await Promise.all([page.waitForNavigation(), page.locator('#tpl-bulk button[type=submit]').click()]);
    expect(await snackbar(page)).toBe('1 started, 1 refused: Beta: disabled');
    expect(await page.locator('.snackbar').getAttribute('class')).toContain('snackbar-error');
    const tasks = await server.deps.db.selectFrom('task').select('template_id').where('project_id', '=', fx.project.id).execute();
    expect(tasks.map((t) => t.template_id)).toEqual([ids.Alpha]);
    await page.context().close();
  }, 120_000);

  it('without JavaScript at 375 px: select-all chooses the page, delete asks first, and a referenced template is kept with its reason', async () => {
    const page = await signedInPage(browser, server.url, 375, false);
    await page.goto(list());
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'templates-bulk-bar-375');
    await page.locator('input[data-bulk-all]').check();
    await page.selectOption('select[name=action]', 'delete');
    await Promise.all([page.waitForNavigation(), page.locator('#tpl-bulk button[type=submit]').click()]);
    const dialog = page.locator('dialog.bulk-delete-dialog');
    expect(await dialog.locator('.bulk-delete-names li').allTextContents()).toEqual(['Alpha', 'Beta', 'Gamma', 'Hooked']);
    // nothing is deleted before Yes
    expect(await template(ids.Gamma!)).toBeDefined();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'templates-bulk-delete-375');
    await Promise.all([page.waitForNavigation(), dialog.locator('button[type=submit]').click()]);
    expect(await snackbar(page)).toBe('3 deleted, 1 refused: Hooked: still in use by integrations, deploy templates or workflows');
    expect(new URL(page.url()).searchParams.has('bulk_delete')).toBe(false);
    expect(await page.locator('tr[data-template] a.clamp').allTextContents()).toEqual(['Hooked']);
    await page.context().close();
  }, 120_000);

  it('a form post with nothing chosen shows the list again with the message; a task runner is offered only Run', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const none = await client.post(`/project/${fx.project.id}/templates?view=all`, { _form: 'templates_bulk', action: 'disable' });
    expect(none.status).toBe(400);
    expect(none.html).toContain('Choose at least one template');
    const noAction = await client.post(`/project/${fx.project.id}/templates?view=all`, { _form: 'templates_bulk', template_id: String(ids.Hooked) });
    expect(noAction.status).toBe(400);
    expect(noAction.html).toContain('Choose an action');

    const runner = await insertMember(server.deps.db, fx.project.id, 'runner1', 'task_runner');
    const asRunner = createClient(server.url);
    await asRunner.signIn(runner.username, 'member-password-1');
    const page = await asRunner.get(`/project/${fx.project.id}/templates?view=all`);
    const options = [...page.html.matchAll(/<option value="(\w+)"/g)].map((m) => m[1]);
    expect(options).toEqual(['run']);
    const refused = await asRunner.post(`/project/${fx.project.id}/templates?view=all`, { _form: 'templates_bulk', action: 'disable', template_id: String(ids.Hooked) });
    expect(refused.status).toBe(400);
    expect((await template(ids.Hooked!))!.disabled).toBe(0);
  }, 120_000);

  it('names templates chosen beyond the first page in the delete confirmation of the continuous list (issue 46)', async () => {
    const { db } = server.deps;
    // the earlier tests deleted some: any template left in the project is the model
    const kept = await db.selectFrom('template').selectAll().where('project_id', '=', fx.project.id).orderBy('id').executeTakeFirstOrThrow();
    const { id: _id, ...copy } = kept;
    const far: number[] = [];
    for (let i = 0; i < 110; i++) {
      far.push((await db.insertInto('template').values({ ...copy, name: `Zeta ${String(i).padStart(3, '0')}` }).returning('id').executeTakeFirstOrThrow()).id);
    }
    const last = far.at(-1)!;
    const client = createClient(server.url);
    await client.signIn();
    const base = `/project/${fx.project.id}/templates?view=all&scroll=all`;
    expect((await client.get(base)).html).not.toContain('Zeta 109');
    const dialog = (await client.get(`${base}&bulk_delete=${last}.${kept.id}.999999`)).html;
    const names = [...dialog.match(/<ul class="bulk-delete-names"[^>]*>([^]*?)<\/ul>/)![1]!.matchAll(/<li[^>]*>([^<]*)<\/li>/g)].map((m) => m[1]);
    // a template nobody may see (or none at all) keeps its number
    expect(names).toEqual(['Zeta 109', kept.name, '#999999']);
    await db.deleteFrom('template').where('id', 'in', far).execute();
  }, 120_000);
});
