import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject, waitForTask } from './support/real-tasks.ts';
import { hasStatus } from '../support/engine.ts';
import { measurePageJs } from './support/js-weight.ts';

/** A script with a coloured line, an HTML lookalike and 300 plain lines. */
const NOISY_SCRIPT = `printf '\\033[31mred failure\\033[0m <img src=x onerror=alert(1)>\\n'\nfor i in $(seq 1 300); do echo "line $i"; done\n`;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let fixture: Awaited<ReturnType<typeof insertScriptProject>>;
let taskId = 0;
let api: Awaited<ReturnType<typeof adminApi>>;

beforeAll(async () => {
  server = await startConsoleServer();
  fixture = await insertScriptProject(server, { 'noisy.sh': NOISY_SCRIPT, 'sleep.sh': 'echo sleeping\nsleep 600\n' }, 'noisy.sh');
  api = await adminApi(server);
  taskId = await api.runTask(fixture.project.id, { template_id: fixture.template.id, message: 'Ship the release' });
  expect((await waitForTask(server.deps.db, taskId)).status).toBe('success');
  browser = await launchBrowser();
  context = await newContext(browser, { javaScriptEnabled: false });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('console with JavaScript disabled', () => {
  it('shows the sign-in error of seed 000 §8 and signs in with a plain form POST', async () => {
    await page.goto(`${server.url}/project/${fixture.project.id}/activity`);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await page.fill('input[name=auth]', ADMIN.login);
    await page.fill('input[name=password]', 'wrong-password');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).toBe('Incorrect login or password');
    await screenshot(page, 'login-error');
    await signIn(page, server.url, `/project/${fixture.project.id}/activity`);
    expect(new URL(page.url()).pathname).toBe(`/project/${fixture.project.id}/activity`);
  });

  it('renders history, stats and activity and navigates between them with links', async () => {
    await page.goto(`${server.url}/project/${fixture.project.id}/history`);
    expect(await page.textContent('h1')).toBe('History');
    const row = await page.innerText(`[data-task="${taskId}"]`);
    expect(row).toContain(`#${taskId}`);
    expect(row).toContain('Deploy web');
    expect(row).toContain('Success');
    expect(row).toContain(ADMIN.name);
    await screenshot(page, 'history-no-js');
    await follow(page, `[data-task="${taskId}"] a`);
    expect(new URL(page.url()).searchParams.get('t')).toBe(String(taskId));
    expect(await page.isVisible('dialog[open]')).toBe(true);
    await follow(page, 'dialog header a.dialog-close');
    await follow(page, 'nav.tabs >> text=Stats');
    expect(new URL(page.url()).pathname).toBe(`/project/${fixture.project.id}/stats`);
    await follow(page, 'nav.tabs >> text=Past month');
    expect(new URL(page.url()).searchParams.get('period')).toBe('month');
    expect(await page.locator('svg polyline').count()).toBe(3);
    expect(await page.textContent('.chart-legend')).toContain('Success: 1');
    await screenshot(page, 'stats-no-js');
    await follow(page, 'nav.tabs >> text=Activity');
    expect(new URL(page.url()).pathname).toBe(`/project/${fixture.project.id}/activity`);
    expect(await page.textContent('h1')).toBe('Activity');
    expect(await page.textContent('main')).toContain(`Task ID ${taskId}`);
    await screenshot(page, 'activity-no-js');
  });

  it('renders the first screen of a real task log from ?t=', async () => {
    await page.goto(`${server.url}/project/${fixture.project.id}/history?t=${taskId}`);
    expect(await page.isVisible('dialog[open]')).toBe(true);
    await screenshot(page, 'task-log-no-js');
    const header = await page.innerText('dialog .task-log-header');
    expect(await page.getAttribute('dialog h2 a', 'href')).toBe(`/project/${fixture.project.id}/templates/${fixture.template.id}`);
    expect(await page.textContent('dialog h2 a')).toBe('Deploy web');
    expect(header).toContain('Success');
    expect(header).toContain(`Started by ${ADMIN.name}`);
    expect(header).toMatch(/\b\d+ s\b/);
    // The server renders the rows of the first screen (the virtual list's window), not all 100 fetched.
    expect(await page.locator('.log-row').count()).toBeGreaterThanOrEqual(60);
    const rows = await page.$$eval('.log-row', (r) => r.map((row) => row.textContent ?? ''));
    expect(rows.join('\n')).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('.log img').count()).toBe(0);
    expect(await page.locator('.log .fg-red').first().textContent()).toBe('red failure');
    // The tabs are links: Details shows the message and the commit without JavaScript.
    await follow(page, 'dialog .task-log-tabs >> text=Details');
    const details = await page.innerText('dialog .task-details');
    expect(details).toContain('Ship the release');
    expect(details).toContain('Bump version');
    await follow(page, 'dialog header a.dialog-close');
    expect(new URL(page.url()).searchParams.has('t')).toBe(false);
  });

  it('stops a running task with the task log form (a plain POST) and shows it Stopped', async () => {
    const sleeper = await fixture.addTemplate('Sleeps', 'sleep.sh');
    const id = await api.runTask(fixture.project.id, { template_id: sleeper.id });
    await waitForTask(server.deps.db, id, hasStatus('running'));
    await page.goto(`${server.url}/project/${fixture.project.id}/history?t=${id}`);
    expect(await page.textContent('dialog .task-log-facts .chip')).toContain('Running');
    // the form POST navigates (POST, then a redirect back to the dialog): wait for it to land
    await Promise.all([page.waitForEvent('framenavigated'), page.click('dialog button[value=stop]')]);
    await page.waitForLoadState('load');
    expect(new URL(page.url()).searchParams.get('t')).toBe(String(id));
    expect((await waitForTask(server.deps.db, id)).status).toBe('stopped');
    await page.goto(`${server.url}/project/${fixture.project.id}/history?t=${id}`);
    expect(await page.getAttribute('dialog .task-log-facts .chip', 'data-status')).toBe('stopped');
    expect(await page.textContent('dialog .task-log-facts .chip')).toContain('Stopped');
  });

  it('ships no JavaScript on sign-in and read-only pages', async () => {
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const id = fixture.project.id;
    const sizes: Record<string, number> = {};
    for (const path of ['/auth/login', `/project/${id}/stats`, `/project/${id}/activity`, '/project/new', '/board/tokens']) {
      const { bytes, html } = await measurePageJs(server.url + path, path === '/auth/login' ? '' : cookie);
      expect(html, path).not.toMatch(/<script|<astro-island/);
      sizes[path] = bytes;
      expect(bytes, path).toBe(0);
    }
    // Active tasks refresh themselves: live with JavaScript, like the history.
    for (const path of [`/project/${id}/history`, `/project/${id}/history?t=${taskId}`, '/tasks']) {
      sizes[path] = (await measurePageJs(server.url + path, cookie)).bytes;
    }
    // the settings form checks its fields as they are typed: the form loop's one small script, nothing more
    sizes[`/project/${id}/settings`] = (await measurePageJs(`${server.url}/project/${id}/settings`, cookie)).bytes;
    expect(sizes[`/project/${id}/settings`]).toBeGreaterThan(0);
    expect(sizes[`/project/${id}/settings`]).toBeLessThan(10 * 1024);
    console.info('gzip JS bytes per page on first load:', sizes);
    expect(sizes[`/project/${id}/history`]).toBeGreaterThan(0);
    expect(sizes[`/project/${id}/history`]).toBeLessThan(90 * 1024);
    expect(sizes[`/project/${id}/history?t=${taskId}`]).toBeLessThanOrEqual(95 * 1024);
  });

  it('reloads the wall board every 30 s without JavaScript, and gives it one small script with it', async () => {
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const page = await context.newPage();
    await page.goto(`${server.url}/board?projects=${fixture.project.id}`);
    expect(await page.locator('#board-grid > li.tile').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.querySelector('noscript')?.innerHTML ?? '')).toContain('http-equiv="refresh" content="30"');
    await page.close();
    const { bytes } = await measurePageJs(`${server.url}/board?projects=${fixture.project.id}`, cookie);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(8 * 1024);
  });
});
