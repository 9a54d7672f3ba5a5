import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject, waitForTask } from './support/real-tasks.ts';
import { createClient } from './support/http-client.ts';
import { seriousViolations } from './support/axe.ts';

let server: ConsoleServer;
let browser: Browser;
let page: Page;
let projectId = 0;

beforeAll(async () => {
  server = await startConsoleServer();
  projectId = (await insertScriptProject(server, { 'run.sh': 'echo "hook run"\n' }, 'run.sh', 'Deploy web')).project.id;
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, `/project/${projectId}/integrations`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Posts the open dialog's form and waits for the page it answers with. */
const save = () => Promise.all([page.waitForNavigation(), page.click('dialog[open] button:has-text("Save")')]);

/** The messages under the fields of the open dialog's form. */
const fieldErrors = () => page.locator('dialog[open] .field-error').allInnerTexts();

describe('integrations', () => {
  it('adds a project alias above the list, with its URL to copy, and deletes it', { timeout: 90_000 }, async () => {
    await page.goto(`${server.url}/project/${projectId}/integrations`);
    expect(await page.textContent('.aliases')).toContain('No aliases yet.');
    expect(await page.textContent('main')).toContain('No integrations yet.');
    await Promise.all([page.waitForURL(/flash=alias_added/), page.click('.aliases button:has-text("Add alias")')]);
    const url = await page.textContent('.aliases .alias-url');
    expect(url).toMatch(new RegExp(`^${server.url}/api/integrations/[a-z0-9]{16}$`));
    expect(await page.getAttribute('.aliases li button[data-copied]', 'data-copied')).toBe('Alias URL copied');
    await Promise.all([page.waitForURL(/flash=alias_deleted/), page.click('.aliases button[aria-label="Delete alias"]')]);
    expect(await page.textContent('.aliases')).toContain('No aliases yet.');
  });

  it('builds an integration with a matcher and an extracted value; a real delivery shows in the log with its task', { timeout: 300_000 }, async () => {
    await page.goto(`${server.url}/project/${projectId}/integrations`);
    await page.click('a:has-text("New integration")');
    await save();
    expect(await fieldErrors()).toEqual(expect.arrayContaining(['Name is required']));
    await page.fill('input[name=name]', 'GitHub push');
    await page.selectOption('select[name=template_id]', { label: 'Deploy web' });
    await Promise.all([page.waitForURL(/\/integrations\/\d+\?flash=integration_saved/), page.click('dialog[open] button:has-text("Save")')]);
    const integrationPath = new URL(page.url()).pathname;
    expect(await page.textContent('h1, .page-header h2')).toContain('GitHub push');

    // Matcher: the seed's five messages, then a body/json matcher on `ref`.
    await page.click('a:has-text("New matcher")');
    await save();
    expect(await fieldErrors()).toEqual(['Name is required', 'Match source is required', 'Key is required', 'Comparison Method is required', 'Value is required']);
    await page.fill('dialog[open] input[name=name]', 'branch');
    await page.selectOption('dialog[open] select[name=match_type]', 'body');
    await save();
    expect(await fieldErrors()).toContain('Body Data Format is required');
    await page.selectOption('dialog[open] select[name=body_data_type]', 'json');
    await page.fill('dialog[open] input[name=key]', 'ref');
    await page.selectOption('dialog[open] select[name=method]', 'equals');
    await page.fill('dialog[open] input[name=value]', 'refs/heads/main');
    await Promise.all([page.waitForURL(/flash=matcher_saved/), page.click('dialog[open] button:has-text("Save")')]);
    expect(await page.textContent('.snackbar')).toContain('Matcher branch saved');

    // Extracted value: the seed's five messages, then the task message from the body.
    await page.click('a:has-text("New value")');
    await save();
    expect(await fieldErrors()).toEqual(['Name is required', 'Value Source is required', 'Key is required', 'Variable Type is required', 'Variable is required']);
    await page.selectOption('dialog[open] select[name=value_source]', 'body');
    await save();
    expect(await fieldErrors()).toContain('Body Data Type is required');
    await page.fill('dialog[open] input[name=name]', 'commit message');
    await page.selectOption('dialog[open] select[name=body_data_type]', 'json');
    await page.fill('dialog[open] input[name=key]', 'message');
    await page.selectOption('dialog[open] select[name=variable_type]', 'task');
    await page.fill('dialog[open] input[name=variable]', 'message');
    await Promise.all([page.waitForURL(/flash=value_saved/), page.click('dialog[open] button:has-text("Save")')]);

    // The integration's own alias, then two real HTTP deliveries: one that does not match, one that does.
    await Promise.all([page.waitForURL(/flash=alias_added/), page.click('.aliases button:has-text("Add alias")')]);
    const hook = (await page.textContent('.aliases .alias-url'))!;
    const post = (body: unknown) => fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ ref: 'refs/heads/dev', message: 'ignored' })).status).toBeLessThan(300);
    expect((await post({ ref: 'refs/heads/main', message: 'Deploy from the hook' })).status).toBeLessThan(300);
    const task = await server.deps.db.selectFrom('task').select(['id', 'message']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(task.message).toBe('Deploy from the hook');
    expect((await waitForTask(server.deps.db, task.id)).status).toBe('success');

    await page.goto(server.url + integrationPath);
    const rows = page.locator('#deliveries tbody tr');
    expect(await rows.count()).toBe(2);
    const newest = await rows.nth(0).innerText();
    expect(newest).toContain('Matched');
    expect(newest).toContain(`Task #${task.id}`);
    const older = await rows.nth(1).innerText();
    expect(older).toContain('Not matched');
    expect(older).toContain('matcher branch did not match');
    expect(await page.innerText('[data-matcher]')).toContain('refs/heads/main');
    expect(await page.innerText('[data-value]')).toContain('message');
    await screenshot(page, 'integration-page-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'integration-page-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    await rows.nth(0).locator(`a:has-text("Task #${task.id}")`).click();
    expect(new URL(page.url()).searchParams.get('t')).toBe(String(task.id));
    await page.locator('dialog[open].task-log').waitFor();

    await page.goto(`${server.url}/project/${projectId}/integrations`);
    expect(await page.innerText(`[data-integration]`)).toContain('GitHub push');
    await screenshot(page, 'integrations-list-1280');
  });

  it('shows each role only the controls its API calls allow (seed 001 §6)', { timeout: 90_000 }, async () => {
    const api = await adminApi(server);
    const [integration] = await api.get<{ id: number }[]>(`/api/project/${projectId}/integrations`);
    const seen: Record<string, Record<string, boolean>> = {};
    for (const role of ['manager', 'task_runner', 'guest']) {
      const login = `${role.replace('_', '-')}-1`;
      const res = await fetch(`${server.url}/api/users`, {
        method: 'POST', headers: { 'content-type': 'application/json', cookie: api.cookie },
        body: JSON.stringify({ name: login, username: login, email: `${login}@example.test`, password: 'plain-password-1' }),
      });
      const { id } = (await res.json()) as { id: number };
      await server.deps.db.insertInto('project_user').values({ project_id: projectId, user_id: id, role, created: new Date().toISOString() }).execute();
      const client = createClient(server.url);
      expect((await client.post('/auth/login?next=/', { step: 'password', auth: login, password: 'plain-password-1' })).status).toBe(303);
      const list = (await client.get(`/project/${projectId}/integrations`)).html;
      const one = (await client.get(`/project/${projectId}/integrations/${integration!.id}`)).html;
      const groups = (await client.get(`/project/${projectId}/environment`)).html;
      seen[role] = {
        newIntegration: list.includes('?edit=new'), addAlias: list.includes('value="alias_add"'), deleteIntegration: list.includes('?delete='),
        editIntegration: one.includes('?edit=1'), newMatcher: one.includes('?matcher=new'), newValue: one.includes('?value=new'),
        matcherActions: one.includes('?delete_matcher='), valueActions: one.includes('?delete_value='), deliveries: one.includes('id="deliveries"'), newEnvironment: groups.includes('?edit=new'),
      };
      // A refused dialog does not open from a crafted URL either.
      if (role !== 'manager') {
        expect((await client.get(`/project/${projectId}/integrations?edit=new`)).html).not.toContain('name="template_id"');
        expect((await client.get(`/project/${projectId}/integrations/${integration!.id}?matcher=new`)).html).not.toContain('name="match_type"');
      }
    }
    const changes = ['newIntegration', 'addAlias', 'deleteIntegration', 'editIntegration', 'newEnvironment', 'newMatcher', 'newValue', 'matcherActions', 'valueActions'];
    const manages = Object.fromEntries(changes.map((name) => [name, true]));
    const reads = Object.fromEntries(changes.map((name) => [name, false]));
    const everyone = { deliveries: true };
    expect(seen).toEqual({
      manager: { ...manages, ...everyone }, task_runner: { ...reads, ...everyone }, guest: { ...reads, ...everyone },
    });
  });

  it('has no serious WCAG violations on the integration and variable group screens', { timeout: 400_000 }, async () => {
    const api = await adminApi(server);
    const [integration] = await api.get<{ id: number }[]>(`/api/project/${projectId}/integrations`);
    const base = `/project/${projectId}`;
    const found: Record<string, string[]> = {};
    for (const path of [`${base}/integrations`, `${base}/integrations?edit=new`, `${base}/integrations/${integration!.id}`,
      `${base}/integrations/${integration!.id}?matcher=new`, `${base}/integrations/${integration!.id}?value=new`, `${base}/environment`,
      `${base}/environment?edit=new`]) {
      await page.goto(server.url + path);
      if (path.endsWith('environment?edit=new')) await page.locator('[data-field-editor=env] .cm-content').waitFor();
      found[path] = await seriousViolations(page);
    }
    expect(Object.entries(found).filter(([, list]) => list.length)).toEqual([]);
  });

  it('says whom each integration runs as, in the list and its details; one without an owner asks to be saved again', { timeout: 60_000 }, async () => {
    const api = await adminApi(server);
    const [template] = await api.get<{ id: number }[]>(`/api/project/${projectId}/templates`);
    const made = await api.send<{ id: number }>('POST', `/api/project/${projectId}/integrations`, { name: 'Owned hook', template_id: template!.id, project_id: projectId });
    const { id } = made;
    const client = createClient(server.url);
    expect((await client.post('/auth/login?next=/', { step: 'password', auth: 'admin', password: 'admin-password-1' })).status).toBe(303);
    const row = async () => [...(await client.get(`/project/${projectId}/integrations`)).html.matchAll(/<tr data-integration="(\d+)"[^]*?<\/tr>/g)]
      .find((m) => m[1] === String(id))![0];
    expect(await row()).toContain('Runs as Admin');
    const details = (await client.get(`/project/${projectId}/integrations/${id}`)).html;
    expect(details).toMatch(/<div data-owner[^>]*><dt[^>]*>Owner<\/dt><dd[^>]*>Runs as Admin<\/dd>/);
    await server.deps.db.updateTable('integration').set({ owner_id: null }).where('id', '=', id).execute();
    expect(await row()).toContain('No owner: someone who may run its template must save it again');
    await api.send('DELETE', `/api/project/${projectId}/integrations/${id}`);
  });

  it('sets the "once within" window in the settings form, shows it in the details, and turns it off again', { timeout: 120_000 }, async () => {
    const api = await adminApi(server);
    const [integration] = await api.get<{ id: number }[]>(`/api/project/${projectId}/integrations`);
    const apiPath = `/api/project/${projectId}/integrations/${integration!.id}`;
    const path = `${server.url}/project/${projectId}/integrations/${integration!.id}`;
    const onceWithin = async () => (await api.get<{ once_within: number | null }>(apiPath)).once_within;
    const summary = () => page.innerText('dl.summary');
    await page.goto(path);
    expect(await summary()).toMatch(/Once within\s+Off/);

    await follow(page, '.page-header a:has-text("Edit")');
    expect(await page.innerText('dialog[open] [data-field=once_within]')).toContain('within this many seconds start one task');
    await page.fill('dialog[open] input[name=once_within]', '0');
    await save();
    expect(await fieldErrors()).toEqual(['Enter a whole number of seconds from 1 to 86400, or leave it empty']);
    expect(await onceWithin()).toBeNull();
    await page.fill('dialog[open] input[name=once_within]', '300');
    await Promise.all([page.waitForURL(/flash=integration_saved/), save()]);
    expect(await onceWithin()).toBe(300);
    expect(await summary()).toMatch(/Once within\s+300 seconds/);
    await screenshot(page, 'integration-once-within-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'integration-once-within-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await follow(page, '.page-header a:has-text("Edit")');
    expect(await page.inputValue('dialog[open] input[name=once_within]')).toBe('300');
    await screenshot(page, 'integration-once-within-form-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'integration-once-within-form-1280');
    await page.context().addCookies([{ name: 'theme', value: 'dark', url: server.url }]);
    await page.reload();
    await screenshot(page, 'integration-once-within-form-1280-dark');
    await page.context().addCookies([{ name: 'theme', value: 'light', url: server.url }]);
    await page.reload();

    // emptied, the window is off: every delivery starts a task again
    await page.fill('dialog[open] input[name=once_within]', '');
    await Promise.all([page.waitForURL(/flash=integration_saved/), save()]);
    expect(await onceWithin()).toBeNull();
    expect(await summary()).toMatch(/Once within\s+Off/);
  });

  it('edits the settings, deletes an extracted value, a matcher and the integration', { timeout: 240_000 }, async () => {
    const api = await adminApi(server);
    const [integration] = await api.get<{ id: number }[]>(`/api/project/${projectId}/integrations`);
    const path = `${server.url}/project/${projectId}/integrations/${integration!.id}`;
    await page.goto(path);
    await page.click('.page-header a:has-text("Edit")');
    expect(await page.inputValue('dialog[open] input[name=name]')).toBe('GitHub push');
    await page.selectOption('dialog[open] select[name=auth_method]', 'token');
    await save();
    expect(await fieldErrors()).toEqual(['Auth header is required', 'Secret key is required']);
    await page.selectOption('dialog[open] select[name=auth_method]', 'none');
    await page.fill('dialog[open] input[name=name]', 'GitHub release');
    await Promise.all([page.waitForURL(/flash=integration_saved/), save()]);
    expect(await page.textContent('.snackbar')).toContain('Integration GitHub release saved');

    await page.click('[data-value] a:has-text("Delete")');
    expect(await page.textContent('dialog[open]')).toContain('Delete extracted value "commit message"?');
    await Promise.all([page.waitForURL(/flash=value_deleted/), page.click('dialog[open] button:has-text("Yes")')]);
    expect(await page.textContent('main')).toContain('No extracted values.');
    await page.click('[data-matcher] a:has-text("Delete")');
    await Promise.all([page.waitForURL(/flash=matcher_deleted/), page.click('dialog[open] button:has-text("Yes")')]);
    expect(await api.get<unknown[]>(`/api/project/${projectId}/integrations/${integration!.id}/matchers`)).toEqual([]);

    await page.click('.page-header a:has-text("Delete")');
    await Promise.all([page.waitForURL(/\/integrations\?flash=integration_deleted/), page.click('dialog[open] button:has-text("Yes")')]);
    expect(await page.textContent('.snackbar')).toContain('Integration GitHub release deleted');
    expect(await api.get<unknown[]>(`/api/project/${projectId}/integrations`)).toEqual([]);
  });
});
