import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';

let server: ConsoleServer;
let browser: Browser;
let page: Page;
let projectId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  projectId = (await insertProject(server.deps.db, 'Runners')).id;
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, `/project/${projectId}/runners`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('runner dialog: several tags and the default runner', { timeout: 120_000 }, () => {
  it('creates a default runner without a tag, then gives it two tags; the list shows both and the default mark', async () => {
    await page.goto(`${server.url}/project/${projectId}/runners?dialog=new`);
    await page.fill('#runner-form input[name=name]', 'main');
    await page.check('#runner-form input[name=is_default]');
    await page.click('dialog[open] button[type=submit]');
    await page.waitForSelector('[data-runner-command]');
    const row = await server.deps.db.selectFrom('runner').select(['id', 'tags', 'is_default']).where('name', '=', 'main').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tags: '[]', is_default: 1 });

    await page.goto(`${server.url}/project/${projectId}/runners?edit=${row.id}`);
    expect(await page.isChecked('#runner-form input[name=is_default]')).toBe(true);
    await page.fill('#runner-form input[name=tag]', 'linux, arm, linux');
    await Promise.all([page.waitForURL((u) => u.pathname === `/project/${projectId}/runners` && !u.searchParams.has('edit')), page.click('dialog[open] button[type=submit]')]);
    const cells = page.locator('tbody tr').first().locator('td');
    expect(await cells.nth(1).textContent()).toContain('Default runner');
    expect(await cells.nth(4).textContent()).toBe('linux, arm');
    await screenshot(page, 'runner-default-1280');

    await page.goto(`${server.url}/project/${projectId}/runners?edit=${row.id}`);
    expect(await page.inputValue('#runner-form input[name=tag]')).toBe('linux, arm');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${server.url}/project/${projectId}/runners`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'runner-default-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // a project runner that is not the default still needs a tag
    await page.goto(`${server.url}/project/${projectId}/runners?dialog=new`);
    await page.fill('#runner-form input[name=name]', 'second');
    await page.click('dialog[open] button[type=submit]');
    expect(await page.locator('[data-field=tag] .field-error').textContent()).toBe('Tag is required');
  });
});
