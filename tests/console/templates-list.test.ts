import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject, waitForTask } from './support/real-tasks.ts';
import { measurePageJs } from './support/js-weight.ts';
import { seriousViolations } from './support/axe.ts';

// Issue 13 screens 1–3: the template list with its views, the view editor, the template page.
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let docs: { id: number };
let firstTask = 0;

const pid = () => fx.project.id;
const url = (path: string) => `${server.url}/project/${pid()}${path}`;
const viewsOf = () => server.deps.db.selectFrom('view').select(['id', 'title', 'position']).where('project_id', '=', pid()).orderBy('position').execute();
const tabs = () => page.locator('.view-tabs a').allTextContents();
/** true when the page does not scroll sideways */
const fitsWidth = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** Clicks a submit button and waits for the page the form leads to (a redirect or the form again). */
async function submit(button: Locator, on: Page = page): Promise<void> {
  await Promise.all([on.waitForNavigation(), button.click()]);
}

/** Screenshots at 1280 and 375 px (after the drawer has settled), checking the page never scrolls sideways. */
async function shoot(name: string): Promise<void> {
  await screenshot(page, `${name}-1280`);
  expect(await fitsWidth(), `${name} at 1280`).toBe(true);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(600);
  expect(await fitsWidth(), `${name} at 375`).toBe(true);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
}

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(server.url + path, {
    method, headers: { 'content-type': 'application/json', cookie: api.cookie, origin: server.url }, body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await startConsoleServer();
  fx = await insertScriptProject(server, { 'run.sh': 'echo deployed\n', 'docs.sh': 'echo docs built\n' }, 'run.sh');
  docs = await fx.addTemplate('Build docs', 'docs.sh');
  api = await adminApi(server);
  firstTask = await api.runTask(pid(), { template_id: fx.template.id, message: 'First deploy' });
  expect((await waitForTask(server.deps.db, firstTask)).status).toBe('success');
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, `/project/${pid()}/templates`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('template list', { timeout: 90_000 }, () => {
  it('lists the templates with their last task, Run links to the launch dialog, rows expand to their latest tasks', async () => {
    await page.goto(url('/templates'));
    const deploy = page.locator(`tr[data-template="${fx.template.id}"]`);
    expect(await deploy.textContent()).toContain('Deploy web');
    expect(await deploy.locator('.chip').getAttribute('data-status')).toBe('success');
    expect(await deploy.textContent()).toContain(`#${firstTask}`);
    expect(await page.locator(`tr[data-template="${docs.id}"]`).textContent()).toContain('Never run');
    const run = await deploy.locator('a.run-button').getAttribute('href');
    expect(run).toBe(`/project/${pid()}/templates?new_task=${fx.template.id}`);
    expect(await deploy.locator(`a[href="/project/${pid()}/templates/${fx.template.id}/tasks"]`).count()).toBe(1);

    // New template: active apps, and for an admin the apps screen
    await page.click('.new-template summary');
    const hrefs = await page.locator('.new-template a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toContain(`/project/${pid()}/templates/new/edit?app=bash`);
    expect(hrefs).toContain(`/project/${pid()}/templates/new/edit?app=ansible`);
    expect(hrefs).toContain('/apps');
    await page.click('.new-template summary');

    await Promise.all([page.waitForURL(/open=/), deploy.locator('.row-expand').click()]);
    const expanded = page.locator('.expanded-row');
    expect(await expanded.textContent()).toContain(`#${firstTask}`);
    expect(await expanded.locator('.chip[data-status=success]').count()).toBe(1);
    await shoot('templates-list');
  });

  it('shows a task started elsewhere in the row without a reload', async () => {
    await page.goto(url('/templates?view=all'));
    const row = page.locator(`tr[data-template="${docs.id}"]`);
    expect(await row.locator('.chip').count()).toBe(0);
    await page.evaluate(() => { (window as unknown as { marker: boolean }).marker = true; });
    const taskId = await api.runTask(pid(), { template_id: docs.id });
    await page.waitForFunction((id) => document.querySelector(`tr[data-template="${id}"] .chip`) !== null, docs.id, { timeout: 20_000 });
    expect(await row.textContent()).toContain(`#${taskId}`);
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
    await waitForTask(server.deps.db, taskId);
  });

  it('hides columns from the column sheet and remembers them in this browser', async () => {
    await page.goto(url('/templates?view=all'));
    const appHeader = page.locator('.data-table th', { hasText: 'App' });
    expect(await appHeader.isVisible()).toBe(true);
    await page.click('.column-sheet summary');
    await page.locator('.column-sheet input[data-col=app]').uncheck();
    expect(await appHeader.isVisible()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('columns:templates'))).toBe('["app"]');
    await page.reload();
    expect(await page.locator('.data-table th', { hasText: 'App' }).isVisible()).toBe(false);
    expect(await page.locator('.data-table th', { hasText: 'Last run' }).isVisible()).toBe(true);
    await page.click('.column-sheet summary');
    expect(await page.locator('.column-sheet input[data-col=app]').isChecked()).toBe(false);
    await page.locator('.column-sheet input[data-col=app]').check();
    expect(await page.locator('.data-table th', { hasText: 'App' }).isVisible()).toBe(true);
  });

  it('loads at most 15 KB of gzip JavaScript until a dialog opens', async () => {
    const { bytes, html } = await measurePageJs(url('/templates?view=all'), api.cookie);
    expect(html).not.toMatch(/<astro-island/);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(15 * 1024);
  });
});

describe('view editor', { timeout: 300_000 }, () => {
  it('adds, renames, reorders and deletes views; an empty title is refused with the seed message', async () => {
    await page.goto(url('/templates?view=all'));
    await Promise.all([page.waitForURL(/views=edit/), page.click('text=Edit views')]);
    const editor = page.locator('.view-editor');
    expect(await editor.locator('.view-row-new input[name=id]').inputValue()).toBe('-1');

    await submit(editor.locator('.view-row-new button[type=submit]'));
    expect(await editor.locator('.view-row-new .field-error').textContent()).toBe('View title must be non-empty');
    await editor.locator('.view-row-new input[name=title]').fill('   ');
    await submit(editor.locator('.view-row-new button[type=submit]'));
    expect(await editor.locator('.view-row-new .field-error').textContent()).toBe('View title must be non-empty');
    expect(await viewsOf()).toHaveLength(0);

    for (const title of ['Production', 'Staging']) {
      await editor.locator('.view-row-new input[name=title]').fill(title);
      await submit(editor.locator('.view-row-new button[type=submit]'));
      expect(await page.textContent('.snackbar')).toContain(`View "${title}" saved`);
    }
    expect((await viewsOf()).map((v) => v.title)).toEqual(['Production', 'Staging']);
    expect(await tabs()).toEqual(['All', 'Production', 'Staging']);
    await shoot('templates-view-editor');

    const [production, staging] = await viewsOf();
    const stagingRow = editor.locator(`.view-row[data-view="${staging!.id}"]`);
    await stagingRow.locator('input[name=title]').fill('');
    await submit(stagingRow.locator('.view-title-form button[type=submit]'));
    expect(await editor.locator(`.view-row[data-view="${staging!.id}"] .field-error`).textContent()).toBe('View title must be non-empty');
    await editor.locator(`.view-row[data-view="${staging!.id}"] input[name=title]`).fill('QA');
    await submit(editor.locator(`.view-row[data-view="${staging!.id}"] .view-title-form button[type=submit]`));
    expect(await page.textContent('.snackbar')).toContain('View "QA" saved');

    await submit(editor.locator(`.view-row[data-view="${staging!.id}"] button[aria-label="Move QA up"]`));
    expect((await viewsOf()).map((v) => v.title)).toEqual(['QA', 'Production']);
    expect(await tabs()).toEqual(['All', 'QA', 'Production']);
    expect(await editor.locator(`.view-row[data-view="${staging!.id}"] button[aria-label="Move QA up"]`).isDisabled()).toBe(true);
    await submit(editor.locator(`.view-row[data-view="${staging!.id}"] button[aria-label="Move QA down"]`));
    expect((await viewsOf()).map((v) => v.title)).toEqual(['Production', 'QA']);

    await submit(editor.locator(`.view-row[data-view="${production!.id}"] button[aria-label="Delete view Production"]`));
    expect(await page.textContent('.snackbar')).toContain('View "Production" deleted');
    expect((await viewsOf()).map((v) => v.title)).toEqual(['QA']);
    expect(await tabs()).toEqual(['All', 'QA']);
  });

  it('shows a view\'s templates and returns to the last visited view', async () => {
    const [qa] = await viewsOf();
    await server.deps.db.updateTable('template').set({ view_id: qa!.id }).where('id', '=', docs.id).execute();
    await page.goto(url('/templates?view=all'));
    await Promise.all([page.waitForURL(`**/views/${qa!.id}/templates`), page.click('.view-tabs >> text=QA')]);
    expect(await page.locator('tr[data-template]').count()).toBe(1);
    expect(await page.locator(`tr[data-template="${docs.id}"]`).count()).toBe(1);
    await page.goto(url('/templates'));
    expect(new URL(page.url()).pathname).toBe(`/project/${pid()}/views/${qa!.id}/templates`);
    await Promise.all([page.waitForURL(/view=all/), page.click('.view-tabs >> text=All')]);
    expect(await page.locator('tr[data-template]').count()).toBe(2);
    await page.goto(url('/templates'));
    expect(new URL(page.url()).pathname).toBe(`/project/${pid()}/templates`);
  });
});

describe('template page', { timeout: 120_000 }, () => {
  it('opens on its tasks, shows every field in details and edits the description in place', async () => {
    await page.goto(url(`/templates/${fx.template.id}`));
    expect(new URL(page.url()).pathname).toBe(`/project/${pid()}/templates/${fx.template.id}/tasks`);
    expect(await page.locator('.tabs a').allTextContents()).toEqual(['Tasks', 'Details']);
    expect(await page.locator(`tr[data-task="${firstTask}"] .chip`).getAttribute('data-status')).toBe('success');
    for (const label of ['Run', 'Copy', 'Edit', 'Delete']) expect(await page.locator('.page-header-actions').textContent()).toContain(label);
    expect(await page.locator('.page-header-actions a', { hasText: 'Run' }).getAttribute('href')).toBe(`/project/${pid()}/templates/${fx.template.id}/tasks?new_task=${fx.template.id}`);
    expect(await page.locator('.page-header-actions a', { hasText: 'Edit' }).getAttribute('href')).toBe(`/project/${pid()}/templates/${fx.template.id}/edit`);
    await shoot('template-tasks');

    await Promise.all([page.waitForURL(/\/details$/), page.click('.tabs >> text=Details')]);
    const fields = await page.textContent('.tpl-fields');
    expect(fields).toContain('run.sh');
    expect(fields).toContain('Repo');
    expect(fields).toContain('Local');
    expect(await page.textContent('.tpl-description')).toContain('No description.');
    await Promise.all([page.waitForURL(/edit=description/), page.click('text=Edit description')]);
    await page.fill('textarea[name=description]', 'Ships the web site');
    await submit(page.locator('.tpl-description button[type=submit]'));
    expect(page.url()).toContain('flash=description_saved');
    expect(await page.textContent('.tpl-description')).toContain('Ships the web site');
    const row = await server.deps.db.selectFrom('template').select('description').where('id', '=', fx.template.id).executeTakeFirstOrThrow();
    expect(row.description).toBe('Ships the web site');
    await shoot('template-details');
  });

  it('pages the template tasks 20 at a time', async () => {
    const now = new Date().toISOString();
    for (let i = 0; i < 21; i++) {
      await server.deps.db.insertInto('task').values({
        project_id: pid(), template_id: docs.id, status: 'success', user_id: fx.adminId, playbook: '', environment: '{}',
        message: `bulk ${i + 1}`, commit_message: '', params: '{}', created: now, start: now, end: now,
      }).execute();
    }
    await page.goto(url(`/templates/${docs.id}/tasks`));
    expect(await page.locator('tr[data-task]').count()).toBe(20);
    expect(await page.textContent('.pager')).toContain('1');
    await Promise.all([page.waitForURL(/page=2/), page.click('.pager a[rel=next]')]);
    expect(await page.locator('tr[data-task]').count()).toBe(2);
  });

  it('shows the State tab for Terraform templates only, with "No state available." for a workspace without state', async () => {
    const res = await send('POST', `/api/project/${pid()}/templates`, {
      name: 'Network', app: 'terraform', playbook: '', repository_id: fx.repository.id, environment_id: fx.environment.id, type: '',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const tf = (await res.json()) as { id: number };
    await page.goto(url(`/templates/${tf.id}/tasks`));
    expect(await page.locator('.tabs a').allTextContents()).toEqual(['Tasks', 'Details', 'State']);
    await Promise.all([page.waitForURL(/\/state$/), page.click('.tabs >> text=State')]);
    expect(await page.textContent('.workspace-state')).toContain('Network - default');
    expect(await page.textContent('.workspace-state')).toContain('No state available.');
    await shoot('template-state');
    await page.goto(url(`/templates/${fx.template.id}/state`));
    expect(new URL(page.url()).pathname).toBe(`/project/${pid()}/templates/${fx.template.id}/tasks`);
  });

  it('copies a template and opens the copy', async () => {
    await page.goto(url(`/templates/${fx.template.id}/tasks`));
    await submit(page.locator('.page-header-actions button:has-text("Copy")'));
    const copy = await server.deps.db.selectFrom('template').selectAll().where('name', '=', 'Deploy web (copy)').executeTakeFirstOrThrow();
    expect(new URL(page.url()).pathname).toBe(`/project/${pid()}/templates/${copy.id}/tasks`);
    expect(await page.textContent('.page-header h2')).toBe('Deploy web (copy)');
    expect(await page.textContent('.snackbar')).toContain('Template "Deploy web (copy)" created');
    expect(copy.playbook).toBe('run.sh');
    expect(copy.repository_id).toBe(fx.repository.id);
    expect(copy.description).toBe('Ships the web site');
  });

  it('disables a template in its dialog: greyed with "Disabled" and no Run in the list and on its page; enabled again it runs', async () => {
    const retired = await fx.addTemplate('Retired job', 'docs.sh');
    await page.goto(url(`/templates/${retired.id}/edit`));
    // the fixture's template has no variable group, which the dialog asks for
    await page.selectOption('select[name=environment_id]', { index: 1 });
    await page.locator('input[name=disabled]').check();
    await submit(page.locator('.tpl-footer button:has-text("Save")'));
    expect((await server.deps.db.selectFrom('template').select('disabled').where('id', '=', retired.id).executeTakeFirstOrThrow()).disabled).toBe(1);

    await page.goto(url('/templates'));
    const row = page.locator(`tr[data-template="${retired.id}"]`);
    expect(await row.getAttribute('class')).toContain('tpl-disabled');
    expect(await row.locator('.disabled-badge').innerText()).toBe('Disabled');
    expect(await row.locator('.run-button').count()).toBe(0);
    expect(await row.locator('.run-off').innerText()).toBe('Not runnable');
    await shoot('templates-disabled');
    await page.goto(url(`/templates/${retired.id}/tasks`));
    expect(await page.locator('.page-header').innerText()).toContain('Disabled');
    expect(await page.locator('.page-header-actions a:has-text("Run")').count()).toBe(0);
    // the launch dialog by URL still reaches the API, which refuses
    expect((await send('POST', `/api/project/${pid()}/tasks`, { template_id: retired.id })).status).toBe(400);

    await page.goto(url(`/templates/${retired.id}/edit`));
    await page.locator('input[name=disabled]').uncheck();
    await submit(page.locator('.tpl-footer button:has-text("Save")'));
    await page.goto(url('/templates'));
    expect(await page.locator(`tr[data-template="${retired.id}"] .run-button`).count()).toBe(1);
    expect((await send('POST', `/api/project/${pid()}/tasks`, { template_id: retired.id })).status).toBe(201);
  });

  it('shows the references dialog while an integration uses the template, then deletes after confirmation', async () => {
    const copy = await server.deps.db.selectFrom('template').select('id').where('name', '=', 'Deploy web (copy)').executeTakeFirstOrThrow();
    const made = await send('POST', `/api/project/${pid()}/integrations`, { name: 'GitHub push', template_id: copy.id, auth_method: 'none' });
    expect(made.status, await made.clone().text()).toBe(201);
    const integration = (await made.json()) as { id: number };

    await page.goto(url(`/templates/${copy.id}/tasks`));
    await Promise.all([page.waitForURL(/delete=1/), page.click('.page-header-actions a:has-text("Delete")')]);
    const refs = page.locator('.references-dialog');
    expect(await refs.textContent()).toContain('GitHub push');
    expect(await refs.locator(`a[href="/project/${pid()}/integrations/${integration.id}"]`).count()).toBe(1);
    expect(await page.locator('.delete-dialog').count()).toBe(0);
    await shoot('template-delete-refs');

    expect((await send('DELETE', `/api/project/${pid()}/integrations/${integration.id}`)).status).toBe(204);
    await page.reload();
    const confirm = page.locator('.delete-dialog');
    expect(await confirm.textContent()).toContain('Deploy web (copy)');
    await submit(confirm.locator('button[type=submit]'));
    expect(new URL(page.url()).pathname).toBe(`/project/${pid()}/templates`);
    expect(await page.textContent('.snackbar')).toContain('Template "Deploy web (copy)" deleted');
    expect(await server.deps.db.selectFrom('template').select('id').where('id', '=', copy.id).executeTakeFirst()).toBeUndefined();
  });
});

describe('roles', { timeout: 240_000 }, () => {
  it('gives a task runner Run only (no New template, view editing, Copy, Edit, Delete); a manager gets New template, disabled without an active app', async () => {
    const made = await send('POST', '/api/users', { name: 'Rita Runner', username: 'rita', email: 'rita@example.test', password: 'rita-password-1' });
    expect(made.status, await made.clone().text()).toBe(201);
    const rita = (await made.json()) as { id: number };
    expect((await send('POST', `/api/project/${pid()}/users`, { user_id: rita.id, role: 'task_runner' })).status).toBe(204);
    const context = await newContext(browser);
    const runner = await context.newPage();
    await runner.goto(`${server.url}/auth/login?next=${encodeURIComponent(`/project/${pid()}/templates?view=all`)}`);
    await runner.fill('input[name=auth]', 'rita');
    await runner.fill('input[name=password]', 'rita-password-1');
    await Promise.all([runner.waitForURL((u) => !u.pathname.startsWith('/auth/')), runner.click('button[type=submit]')]);
    expect(await runner.locator(`tr[data-template="${fx.template.id}"] a.run-button`).count()).toBe(1);
    expect(await runner.locator('.new-template').count()).toBe(0);
    expect(await runner.locator('text=Edit views').count()).toBe(0);
    await runner.goto(url('/templates?view=all&views=edit'));
    expect(await runner.locator('.view-editor').count()).toBe(0);
    await runner.goto(url(`/templates/${fx.template.id}/tasks`));
    const actions = await runner.locator('.page-header-actions').textContent();
    expect(actions).toContain('Run');
    for (const label of ['Copy', 'Edit', 'Delete']) expect(actions).not.toContain(label);
    await runner.goto(url(`/templates/${fx.template.id}/tasks?delete=1`));
    expect(await runner.locator('dialog').count()).toBe(0);
    await runner.goto(url(`/templates/${fx.template.id}/details`));
    expect(await runner.locator('text=Edit description').count()).toBe(0);

    // a manager may create templates and edit views; without an active app New template is disabled (admins keep it)
    expect((await send('PUT', `/api/project/${pid()}/users/${rita.id}`, { role: 'manager' })).status).toBe(204);
    await runner.goto(url('/templates?view=all'));
    expect(await runner.locator('text=Edit views').count()).toBe(1);
    expect(await runner.locator('.new-template a[href="/apps"]').count()).toBe(0);
    expect(await runner.locator('.new-template a').count()).toBeGreaterThan(0);
    const apps = await api.get<{ id: string; active: boolean }[]>('/api/apps');
    const active = apps.filter((a) => a.active).map((a) => a.id);
    try {
      for (const id of active) expect((await send('POST', `/api/apps/${id}/active`, { active: false })).status).toBe(204);
      await runner.reload();
      expect(await runner.locator('.new-template').count()).toBe(0);
      expect(await runner.locator('button:has-text("New template")').isDisabled()).toBe(true);
      await page.goto(url('/templates?view=all'));
      expect(await page.locator('.new-template a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['/apps']);
    } finally {
      for (const id of active) await send('POST', `/api/apps/${id}/active`, { active: true });
    }
    await context.close();
  });
});

describe('accessibility', { timeout: 300_000 }, () => {
  it('has no serious axe violations on the list, the view editor and the template page', async () => {
    for (const path of ['/templates?view=all', `/templates?view=all&views=edit&open=${docs.id}`, `/templates/${docs.id}/tasks`,
      `/templates/${docs.id}/details`, `/templates/${docs.id}/tasks?delete=1`]) {
      await page.goto(url(path));
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });
});

describe('without JavaScript', { timeout: 300_000 }, () => {
  it('renders the list, a view and the template page, and the view editor works with plain forms', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const plain = await context.newPage();
    await signIn(plain, server.url, `/project/${pid()}/templates?view=all`);
    expect(await plain.locator(`tr[data-template="${fx.template.id}"]`).textContent()).toContain('Deploy web');
    expect(await plain.locator('.column-sheet').isVisible()).toBe(false);
    await Promise.all([plain.waitForURL(/open=/), plain.locator(`tr[data-template="${fx.template.id}"] .row-expand`).click()]);
    expect(await plain.textContent('.expanded-row')).toContain(`#${firstTask}`);

    await plain.goto(url('/templates?view=all&views=edit'));
    await plain.fill('.view-row-new input[name=title]', '');
    await submit(plain.locator('.view-row-new button[type=submit]'), plain);
    expect(await plain.textContent('.view-row-new .field-error')).toBe('View title must be non-empty');
    await plain.fill('.view-row-new input[name=title]', 'Nightly');
    await submit(plain.locator('.view-row-new button[type=submit]'), plain);
    expect(await plain.locator('.view-tabs a').allTextContents()).toContain('Nightly');

    await plain.goto(url(`/templates/${fx.template.id}/tasks`));
    expect(await plain.locator(`tr[data-task="${firstTask}"]`).count()).toBe(1);
    await plain.goto(url(`/templates/${fx.template.id}/details`));
    expect(await plain.textContent('.tpl-fields')).toContain('run.sh');
    await context.close();
  });
});
