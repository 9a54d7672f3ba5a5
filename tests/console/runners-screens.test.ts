import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';
import { seriousViolations } from './support/axe.ts';

let server: ConsoleServer;
let browser: Browser;
let page: Page;
let projectId: number;

beforeAll(async () => {
  server = await startConsoleServer({ SEMAPHORE_USE_REMOTE_RUNNER: 'true' });
  projectId = (await insertProject(server.deps.db, 'Runners')).id;
  browser = await launchBrowser();
  const context = await newContext(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  await signIn(page, server.url, '/runners');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('runners screens', { timeout: 120_000 }, () => {
  it('global runners: the new-runner dialog checks the name, shows the token and the start command once, copies the command', async () => {
    await page.goto(`${server.url}/runners`);
    expect(await page.locator('.empty-state').textContent()).toContain('No runners yet.');
    await page.click('text=New runner');
    await page.waitForSelector('dialog[open] #runner-form');
    await page.fill('#runner-form input[name=max_parallel_tasks]', '2');
    await page.click('dialog[open] button[type=submit]');
    expect(await page.locator('[data-field=name] .field-error').textContent()).toBe('Name is required');
    await page.fill('#runner-form input[name=name]', 'edge-1');
    await page.fill('#runner-form input[name=tag]', 'gpu');
    await page.click('dialog[open] button[type=submit]');
    await page.waitForSelector('[data-runner-command]');
    const token = (await page.locator('[data-runner-token]').textContent())!.trim();
    expect(token).toMatch(/^[A-Za-z0-9+/=]{44}$/);
    const command = (await page.locator('[data-runner-command]').textContent())!;
    expect(command).toContain(`SEMAPHORE_RUNNER_TOKEN=${token}`);
    expect(command).toContain('BEGIN PRIVATE KEY');
    await page.click('text=Copy command');
    await page.waitForFunction(() => document.querySelector('.runners-copy-result')?.textContent !== '');
    expect(await page.locator('.runners-copy-result').textContent()).toBe('The command has been copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    expect(await page.locator('td', { hasText: 'edge-1' }).count()).toBe(1);
    await screenshot(page, 'runners-created-1280');
    // shown once: a reload shows the list without the secrets
    await page.goto(`${server.url}/runners`);
    expect(await page.content()).not.toContain(token);
  });

  it('switches a runner off, edits it, clears its cache and deletes it after asking', async () => {
    await page.goto(`${server.url}/runners`);
    await Promise.all([page.waitForURL(/flash=runner_saved/), page.click('button[role=switch]')]);
    expect(await page.locator('button[role=switch]').getAttribute('aria-checked')).toBe('false');
    await page.click('.res-actions a:has-text("Edit")');
    await page.fill('#runner-form input[name=name]', 'edge-2');
    await Promise.all([page.waitForURL(/flash=runner_saved/), page.click('dialog[open] button[type=submit]')]);
    expect(await page.locator('td', { hasText: 'edge-2' }).count()).toBe(1);
    await Promise.all([page.waitForURL(/flash=runner_cache_cleared/), page.click('.res-actions button:has-text("Clear cache")')]);
    await page.click('.runners-delete');
    await page.waitForSelector('dialog[open].delete-dialog');
    await Promise.all([page.waitForURL(/flash=runner_deleted/), page.click('dialog[open] button:has-text("Yes")')]);
    expect(await page.locator('.empty-state').count()).toBe(1);
  });

  it('project runners: the tag is required; the list shows activity; fits a phone without sideways scroll', async () => {
    await page.goto(`${server.url}/project/${projectId}/runners`);
    expect(await page.locator('.runners-pro').count()).toBe(0);
    await page.click('text=New runner');
    await page.fill('#runner-form input[name=name]', 'project-runner');
    await page.click('dialog[open] button[type=submit]');
    expect(await page.locator('[data-field=tag] .field-error').textContent()).toBe('Tag is required');
    await page.fill('#runner-form input[name=tag]', 'linux');
    await page.click('dialog[open] button[type=submit]');
    await page.waitForSelector('[data-runner-command]');
    await server.deps.db.updateTable('runner').set({ touched: new Date().toISOString() }).execute();
    await page.goto(`${server.url}/project/${projectId}/runners`);
    expect(await page.locator('.runners-dot-green').count()).toBe(1);
    expect(await page.locator('nav a[href$="/runners"]').count()).toBe(1);
    await screenshot(page, 'runners-project-1280');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/project/${projectId}/runners?dialog=new`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/project/${projectId}/runners`);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'runners-project-375');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
