import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { ADMIN, startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, waitForTask } from './support/real-tasks.ts';
import { createGitRepo } from '../support/git-repo.ts';
import { insertProjectWithTemplate } from '../support/fixtures.ts';
import { SUMMARY_INVENTORY, SUMMARY_PLAYBOOK } from '../support/ansible-summary-playbook.ts';

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let projectId = 0;
let taskId = 0;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  const { db } = server.deps;
  const admin = await db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  const repo = createGitRepo(join(server.tmp, 'summary-repo'), { 'site.yml': SUMMARY_PLAYBOOK }, 'Add playbook');
  const fx = await insertProjectWithTemplate(db, { ownerId: admin.id, gitUrl: `file://${repo.path}`, app: 'ansible', playbook: 'site.yml', inventory: SUMMARY_INVENTORY, templateName: 'Site' });
  projectId = fx.project.id;
  taskId = await (await adminApi(server)).runTask(projectId, { template_id: fx.template.id });
  expect((await waitForTask(db, taskId, undefined, 120_000)).status).toBe('error');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the Summary tab of the task log dialog, in Chromium', () => {
  it('shows the stages, the hosts with failed and unreachable ones first, and the failed tasks with their messages', { timeout: 60_000 }, async () => {
    const page = await context.newPage();
    await signIn(page, server.url, `/project/${projectId}/history?t=${taskId}`);
    await Promise.all([page.waitForURL(/tab=summary/, { timeout: 10_000 }), page.click('dialog nav a:has-text("Summary")', { timeout: 10_000 })]);
    const stages = await page.$$eval('dialog [data-stage]', (rows) => rows.map((r) => [r.getAttribute('data-stage'), r.querySelector('td')?.textContent]));
    expect(stages).toEqual([['init', 'Preparation'], ['running', 'Run'], ['print_result', 'Recap']]);
    const hosts = await page.$$eval('dialog [data-host]', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    expect(hosts.map((cells) => cells[0])).toEqual(['localhost', 'unreachable-host', 'calm-host']);
    // columns: host, ok, changed, unreachable, failed, skipped, rescued, ignored
    expect(hosts[0]).toEqual(['localhost', '2', '1', '0', '1', '0', '0', '1']);
    expect(hosts[1]!.slice(3, 5)).toEqual(['1', '0']);
    expect(hosts[2]).toEqual(['calm-host', '2', '0', '0', '0', '2', '0', '0']);
    const errors = await page.$$eval('dialog [data-error-host]', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim())));
    expect(errors.map((cells) => cells.slice(0, 2)).sort()).toEqual([['localhost', 'break on purpose'], ['unreachable-host', 'check the connection']]);
    expect(errors.find((cells) => cells[0] === 'localhost')![2]).toBe('disk is full on localhost');
    await screenshot(page, 'task-summary');
    // the Log tab is one click away and shows the lines again
    await Promise.all([page.waitForURL((u) => !u.search.includes('tab=summary'), { timeout: 10_000 }), page.click('dialog nav a:has-text("Log")', { timeout: 10_000 })]);
    await page.waitForSelector('.log-row', { timeout: 10_000 });
    // only the rows on screen exist: End brings the recap at the log's foot into view
    await page.focus('dialog .log');
    await page.keyboard.press('End');
    await page.waitForFunction(() => [...document.querySelectorAll('.log-row')].some((r) => r.textContent?.includes('PLAY RECAP')), null, { timeout: 10_000 });
    await page.close();
  });

  it('says the stage durations in the reader\'s language', { timeout: 60_000 }, async () => {
    const russian = await browser.newContext({ locale: 'en-US' });
    await russian.addCookies([{ name: 'lang', value: 'ru', url: server.url }]);
    const page = await russian.newPage();
    await signIn(page, server.url, `/project/${projectId}/history?t=${taskId}&tab=summary`);
    const durations = await page.$$eval('dialog [data-stage] td:last-child', (cells) => cells.map((td) => td.textContent));
    expect(durations).toHaveLength(3);
    for (const text of durations) expect(text).toMatch(/^(\d+ (ч|мин|с) ?)+$/);
    await russian.close();
  });

  it('says the summary is empty for a task that wrote none, with no page reload timer', async () => {
    const { db } = server.deps;
    const quiet = await db.insertInto('task').values({
      project_id: projectId, template_id: (await db.selectFrom('template').select('id').where('project_id', '=', projectId).executeTakeFirstOrThrow()).id,
      status: 'success', user_id: null, playbook: '', environment: '{}', message: '', commit_message: '', params: '{}', created: new Date().toISOString(),
    }).returning('id').executeTakeFirstOrThrow();
    const page = await context.newPage();
    await page.goto(`${server.url}/project/${projectId}/history?t=${quiet.id}&tab=summary`);
    expect(await page.textContent('dialog .task-summary')).toContain('No summary yet');
    expect(await page.$$('dialog meta[http-equiv=refresh]')).toHaveLength(0);
    await page.close();
  });
});
