import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { createGitRepo } from '../support/git-repo.ts';

// The journey of issues #13 and #14 across every new screen, in the browser alone: a new
// project, a repository on a local git repository made here, a variable group with an
// environment variable (table mode of the JSON editor), a bash template from the template
// dialog that uses both, started from the list's Run button through the launch dialog; the task
// succeeds and its log shows the variable. Each screen has its own deeper test; this one checks
// that they work together.
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let tmp: string;

const SLOW_MS = 300_000;
const hydrated = (p: Page) => p.waitForFunction(() => !document.querySelector('astro-island[ssr]'));

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'signalbox-journey-'));
  server = await startConsoleServer();
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function submitDialog(p: Page, url: RegExp): Promise<void> {
  await Promise.all([p.waitForURL(url), p.click('dialog form button[type=submit]')]);
}

describe('a project built in the browser alone', () => {
  it('creates a repository, a variable group and a template, runs it from the list and sees it succeed', async () => {
    const repo = createGitRepo(join(tmp, 'scripts'), { 'greet.sh': '#!/bin/bash\necho "greeting: $GREETING from $(basename "$PWD")"\n' });

    await signIn(page, server.url, '/project/new');
    await page.fill('input[name=name]', 'Journey');
    await Promise.all([page.waitForURL(/\/project\/\d+\/history/), page.click('main form button[type=submit]:not([name])')]);
    const pid = Number(/\/project\/(\d+)\//.exec(page.url())![1]);

    // repository: a local path needs no branch; the project's own "None" key is offered
    await page.click('nav >> text=Repositories');
    await Promise.all([page.waitForURL(/edit=new/), page.click('text=New repository')]);
    await page.fill('input[name=name]', 'Scripts');
    await page.fill('input[name=git_url]', repo.path);
    await page.selectOption('select[name=ssh_key_id]', { label: 'None' });
    await submitDialog(page, /flash=repository_saved/);
    expect(await page.textContent('main table')).toContain('Scripts');

    // variable group: the environment variable typed in the table mode of the JSON editor
    await page.click('nav >> text=Variable groups');
    await Promise.all([page.waitForURL(/edit=new/), page.click('a:has-text("New variable group")')]);
    await page.fill('input[name=name]', 'Greetings');
    const env = page.locator('[data-field-editor=env]');
    await env.locator('.cm-content').waitFor();
    await env.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{"GREETING": "draft"}');
    await env.locator('button:has-text("Table")').click();
    await expect.poll(() => env.getAttribute('data-mode')).toBe('table');
    await env.locator('input[aria-label="Value 1"]').fill('hello from the journey');
    await Promise.all([page.waitForURL(/flash=environment_saved/), page.click('button:has-text("Save")')]);

    // template: the New template menu of the list, Bash, then the template dialog
    await page.click('nav >> text=Task templates');
    await page.click('.new-template summary');
    await Promise.all([page.waitForURL(/templates\/new\/edit\?app=bash/), page.click('.new-template a[href$="app=bash"]')]);
    await page.fill('input[name=name]', 'Greet');
    await page.fill('input[name=playbook]', 'greet.sh');
    await page.selectOption('select[name=repository_id]', { label: 'Scripts' });
    await page.selectOption('select[name=environment_id]', { label: 'Greetings' });
    await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/), page.click('dialog footer button[type=submit]')]);
    await screenshot(page, 'journey-template-page');

    // run it from the list's Run button through the launch dialog
    await page.goto(`${server.url}/project/${pid}/templates`);
    await Promise.all([page.waitForURL(/new_task=\d+/), page.click('main tr:has-text("Greet") a[href*="new_task="]')]);
    await hydrated(page);
    const dialog = page.locator('dialog.launch-dialog');
    await dialog.locator('input[name=message]').fill('First greeting');
    await Promise.all([page.waitForURL(/[?&]t=\d+/), dialog.locator('button[type=submit]').click()]);
    const taskId = Number(new URL(page.url()).searchParams.get('t'));
    await page.waitForSelector('dialog .task-log-facts .chip[data-status=success]', { timeout: 120_000 });
    await expect.poll(async () => (await page.$$eval('.log-row', (rows) => rows.map((r) => r.textContent ?? ''))).join('\n'), { timeout: 20_000 })
      .toContain('greeting: hello from the journey');
    await screenshot(page, 'journey-task-log');

    const task = await server.deps.db.selectFrom('task').select(['status', 'message', 'project_id']).where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'success', message: 'First greeting', project_id: pid });
  }, SLOW_MS);
});
