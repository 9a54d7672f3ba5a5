import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';

let server: ConsoleServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // remote runners switched on in the config: the menu offers Runners (served since issue 16)
  server = await startConsoleServer({ SEMAPHORE_USE_REMOTE_RUNNER: 'true' });
  browser = await launchBrowser();
  const context = await newContext(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  await signIn(page, server.url, '/');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('users and API tokens screens', { timeout: 90_000 }, () => {
  it('offers Runners while remote runners are used, and every user menu entry opens a working screen', async () => {
    const info = await page.request.get(`${server.url}/api/info`);
    expect((await info.json()).use_remote_runner).toBe(true);
    await page.goto(`${server.url}/`);
    const menu = page.locator('.user-menu');
    expect(await menu.locator('a[href="/runners"]').count()).toBe(1);
    const links = await menu.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(links).toEqual(expect.arrayContaining(['/users', '/apps', '/tasks', '/tokens', '/runners']));
    for (const href of links) expect((await page.request.get(`${server.url}${href}`)).status(), href).toBe(200);
  });

  it('creates a user from Users, edits it, and deletes it after asking', async () => {
    await page.click('.user-menu summary');
    await Promise.all([page.waitForURL(`${server.url}/users`), page.click('.user-menu >> text=Users')]);
    await Promise.all([page.waitForURL(`${server.url}/users/new`), page.click('text=New user')]);
    await page.fill('input[name=name]', 'Grace Hopper');
    await page.fill('input[name=username]', 'grace');
    await page.fill('input[name=email]', 'grace@example.test');
    await page.fill('input[name=password]', 'grace-password-1');
    await page.check('input[name=can_create_project]');
    await Promise.all([page.waitForURL(/\/users\?flash=user_created/), page.click('main form button[type=submit]')]);
    const grace = () => server.deps.db.selectFrom('user').select('can_create_project').where('username', '=', 'grace').executeTakeFirstOrThrow();
    expect(Boolean((await grace()).can_create_project)).toBe(true);
    expect(await page.textContent('.snackbar')).toContain('User Grace Hopper created');
    expect(await page.textContent('main table')).toContain('grace@example.test');
    await screenshot(page, 'users');

    await Promise.all([page.waitForURL(/\/users\/\d+\/edit$/), page.click('tr:has-text("grace") >> text=Edit')]);
    expect(await page.isChecked('input[name=can_create_project]')).toBe(true);
    await page.uncheck('input[name=can_create_project]');
    await page.fill('input[name=name]', 'Grace B. Hopper');
    await Promise.all([page.waitForURL(/flash=user_saved/), page.click('form:has(input[value=save]) button[type=submit]')]);
    expect(await page.textContent('.snackbar')).toContain('User Grace B. Hopper saved');
    expect(Boolean((await grace()).can_create_project)).toBe(false);

    await Promise.all([page.waitForURL(/confirm=delete/), page.click('text=Delete user')]);
    expect(await page.textContent('.confirm-delete')).toContain('Delete user Grace B. Hopper?');
    await Promise.all([page.waitForURL(/\/users\?flash=user_deleted/), page.click('.confirm-delete button[type=submit]')]);
    expect(await page.textContent('.snackbar')).toContain('User Grace B. Hopper deleted');
    expect(await server.deps.db.selectFrom('user').select('id').where('username', '=', 'grace').executeTakeFirst()).toBeUndefined();
  });

  it('creates an API token shown in full once with copy, lists it masked as Active, and deletes it', async () => {
    await page.click('.user-menu summary');
    await Promise.all([page.waitForURL(`${server.url}/tokens`), page.click('.user-menu >> text=API tokens')]);
    await page.fill('input[name=name]', 'CI');
    await follow(page, 'form:has(input[value=create]) button[type=submit]');
    const token = (await page.textContent('[data-new-token]'))!.trim();
    expect(token).toMatch(/^[a-z0-9_=-]{44}$/);
    await page.click('.new-token button');
    await page.waitForFunction(() => document.querySelector('.new-token button')?.textContent === 'The token has been copied to the clipboard.', undefined, { timeout: 10_000 });
    const row = page.locator('tbody tr', { hasText: 'CI' });
    expect(await row.textContent()).toContain(token.slice(0, 8));
    expect(await row.textContent()).toContain('Active');
    expect(await row.textContent()).toContain('Read only');
    await page.fill('input[name=name]', 'Assistant');
    await page.check('input[name=allow_write_operations]');
    await follow(page, 'form:has(input[value=create]) button[type=submit]');
    const assistant = (await page.textContent('[data-new-token]'))!.trim();
    expect(await page.locator('tbody tr', { hasText: 'Assistant' }).textContent()).toContain('Start, stop, approve');
    const stored = await server.deps.db.selectFrom('api_token').select('allow_write_operations').where('prefix', '=', assistant.slice(0, 8)).executeTakeFirstOrThrow();
    expect(stored.allow_write_operations).toBe(1);
    await screenshot(page, 'tokens');
    await page.goto(`${server.url}/tokens`);
    expect(await page.content()).not.toContain(token);
    await Promise.all([page.waitForURL(/flash=token_deleted/), page.locator('tbody tr', { hasText: 'CI' }).locator('button').click()]);
    expect(await page.textContent('.snackbar')).toContain('Token deleted');
    expect(await page.locator('tbody tr', { hasText: 'CI' }).count()).toBe(0);
  });

  it('adds an app in Apps, switches it off, refuses to delete a built-in one and deletes the new one', async () => {
    await page.click('.user-menu summary');
    await Promise.all([page.waitForURL(`${server.url}/apps`), page.click('.user-menu >> text=Apps')]);
    await Promise.all([page.waitForURL(`${server.url}/apps/new`), page.click('text=New app')]);
    await page.fill('input[name=id]', 'ruby');
    await page.fill('input[name=title]', 'Ruby');
    await page.fill('input[name=path]', 'ruby');
    await page.fill('textarea[name=args]', '-w');
    await page.fill('input[name=icon]', 'mdi-language-ruby');
    expect(await page.getAttribute('input[name=color]', 'type')).toBe('color');
    await page.fill('input[name=color]', '#cc3300');
    await Promise.all([page.waitForURL(/\/apps\?flash=app_saved/), page.click('main form button[type=submit]')]);
    expect(await page.textContent('.snackbar')).toContain('App ruby saved');
    const ruby = page.locator('tbody tr', { hasText: 'ruby' });
    const listIcon = ruby.locator('.app-icon');
    expect(await listIcon.getAttribute('data-icon')).toBe('mdi-language-ruby');
    expect(await listIcon.textContent()).toBe('R');
    expect(await listIcon.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(204, 51, 0)');
    const option = (field: string) => server.deps.db.selectFrom('option').select('value').where('key', '=', `apps.ruby.${field}`).executeTakeFirst();
    expect((await option('color'))?.value).toBe('#cc3300');

    await Promise.all([page.waitForURL(`${server.url}/apps/ruby`), ruby.locator('text=Edit').click()]);
    const preview = page.locator('.icon-field .app-icon');
    expect(await preview.getAttribute('data-icon')).toBe('mdi-language-ruby');
    expect(await preview.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(204, 51, 0)');
    expect(await page.inputValue('input[name=color]')).toBe('#cc3300');
    await Promise.all([page.waitForURL(/\/apps\?flash=app_saved/), page.click('main form button[type=submit]')]);
    expect(await ruby.locator('button[aria-pressed]').getAttribute('aria-pressed')).toBe('true');
    await Promise.all([page.waitForURL(/flash=app_saved/), ruby.locator('button[aria-pressed]').click()]);
    expect(await page.locator('tbody tr', { hasText: 'ruby' }).locator('button[aria-pressed]').getAttribute('aria-pressed')).toBe('false');
    const row = await server.deps.db.selectFrom('option').selectAll().where('key', 'like', '%ruby%').execute();
    expect(row.length).toBeGreaterThan(0);
    await screenshot(page, 'apps');

    // a built-in saved without touching the picker keeps its colour name
    await page.goto(`${server.url}/apps/bash`);
    expect(await page.inputValue('input[name=color]')).toBe('#000000');
    await Promise.all([page.waitForURL(/\/apps\?flash=app_saved/), page.click('main form button[type=submit]')]);
    expect((await server.deps.db.selectFrom('option').select('value').where('key', '=', 'apps.bash.color').executeTakeFirst())?.value).toBe('black');

    await follow(page, page.locator('tbody tr', { hasText: 'bash' }).first().locator('form:has(input[value=delete]) button'));
    expect(await page.textContent('[role=alert]')).toContain('Built-in apps cannot be deleted');
    await Promise.all([page.waitForURL(/flash=app_deleted/), page.locator('tbody tr', { hasText: 'ruby' }).locator('form:has(input[value=delete]) button').click()]);
    expect(await page.locator('tbody tr', { hasText: 'ruby' }).count()).toBe(0);
  });
});
