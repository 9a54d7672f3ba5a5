import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, waitForTask } from './support/real-tasks.ts';
import { createGitRepo } from '../support/git-repo.ts';
import { insertTemplate } from '../support/fixtures.ts';
import { hasStatus } from '../support/engine.ts';

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let api: Awaited<ReturnType<typeof adminApi>>;
let projectId = 0;

beforeAll(async () => {
  // A stand-in terraform CLI (plans with changes), so a task waits for confirmation.
  process.env.PATH = `${join(import.meta.dirname, '../fakes')}:${process.env.PATH}`;
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  api = await adminApi(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page of the shared context that records uncaught script errors. */
async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

const rowText = (page: Page) => page.$$eval('.log-row', (rows) => rows.map((r) => r.textContent ?? ''));
const dialogStatus = (page: Page) => page.getAttribute('dialog .task-log-facts .chip', 'data-status');

describe('task log dialog against the real task engine', () => {
  it('creates a demo project through the console', async () => {
    const { page, errors } = await openPage();
    await signIn(page, server.url, '/project/new');
    await page.fill('input[name=name]', 'Demo site');
    await Promise.all([page.waitForURL(/\/project\/\d+\/history/), page.click('main form button[name=demo]')]);
    projectId = Number(/\/project\/(\d+)\//.exec(page.url())![1]);
    expect(await page.textContent('.snackbar')).toContain('Project Demo site created');
    const templates = await api.get<{ name: string }[]>(`/api/project/${projectId}/templates`);
    expect(templates.map((t) => t.name).sort()).toEqual(['Build', 'Deploy to Dev', 'Deploy to Production', 'Ping Site']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('streams a queued Ping Site task into its open dialog until Success, while a sleep 600 task is stopped from its own dialog', async () => {
    const { db } = server.deps;
    // One task at a time in this project: the ping task waits behind the sleeping one, so its
    // dialog is open (and its websocket connected) before the first line is written.
    await db.updateTable('project').set({ max_parallel_tasks: 1 }).where('id', '=', projectId).execute();
    const repo = createGitRepo(join(server.tmp, 'sleeper'), { 'sleep.sh': 'echo "going to sleep"\nsleep 600\n' }, 'Add the sleeper');
    const key = await db.selectFrom('access_key').select('id').where('project_id', '=', projectId).where('type', '=', 'none').executeTakeFirstOrThrow();
    const sleeperRepo = await db.insertInto('repository').values({ project_id: projectId, name: 'Sleeper', git_url: `file://${repo.path}`, git_branch: 'main', ssh_key_id: key.id })
      .returningAll().executeTakeFirstOrThrow();
    const sleeper = await insertTemplate(db, projectId, { name: 'Sleep forever', playbook: 'sleep.sh', repository_id: sleeperRepo.id });
    const ping = (await api.get<{ id: number; name: string }[]>(`/api/project/${projectId}/templates`)).find((t) => t.name === 'Ping Site')!;

    const history = await openPage();
    await history.page.goto(`${server.url}/project/${projectId}/history`);
    expect(await history.page.textContent('#live-region')).toContain('No tasks have run in this project yet.');

    const sleepId = await api.runTask(projectId, { template_id: sleeper.id, message: 'Sleeps until stopped' });
    await waitForTask(db, sleepId, hasStatus('running'));
    const pingId = await api.runTask(projectId, { template_id: ping.id, message: 'Ping from the journey' });

    const pingLog = await openPage();
    await pingLog.page.goto(`${server.url}/project/${projectId}/history?t=${pingId}`);
    await pingLog.page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    expect(await dialogStatus(pingLog.page)).toBe('waiting');
    expect(await pingLog.page.textContent('dialog .task-log-facts')).toContain('Waiting');
    await pingLog.page.evaluate(() => { (window as unknown as { sameDocument: boolean }).sameDocument = true; });
    const linesBefore = (await rowText(pingLog.page)).length;

    const sleepLog = await openPage();
    await sleepLog.page.goto(`${server.url}/project/${projectId}/history?t=${sleepId}`);
    await sleepLog.page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    expect(await dialogStatus(sleepLog.page)).toBe('running');
    await sleepLog.page.waitForFunction(() => [...document.querySelectorAll('.log-row')].some((r) => r.textContent?.includes('going to sleep')));
    await screenshot(sleepLog.page, 'task-log-running');
    await sleepLog.page.click('dialog button[value=stop]');
    await sleepLog.page.waitForSelector('dialog .task-log-facts .chip[data-status=stopped]', { timeout: 15_000 });
    expect(await sleepLog.page.textContent('dialog .task-log-facts .chip')).toContain('Stopped');
    expect((await waitForTask(db, sleepId)).status).toBe('stopped');
    expect(await sleepLog.page.locator('dialog a:has-text("Raw log")').getAttribute('href')).toBe(`/api/project/${projectId}/tasks/${sleepId}/raw_output`);

    // The ping task starts now; its lines arrive over the websocket into the open dialog.
    await pingLog.page.waitForSelector('dialog .task-log-facts .chip[data-status=running]', { timeout: 30_000 });
    await pingLog.page.waitForFunction(() => [...document.querySelectorAll('.log-row')].some((r) => r.textContent?.includes('Hello from localhost')), null, { timeout: 60_000 });
    await screenshot(pingLog.page, 'task-log-streaming');
    await pingLog.page.waitForSelector('dialog .task-log-facts .chip[data-status=success]', { timeout: 60_000 });
    const lines = await rowText(pingLog.page);
    expect(lines.length).toBeGreaterThan(linesBefore);
    expect(lines.join('\n')).toMatch(/PLAY RECAP/);
    expect(await pingLog.page.textContent('dialog .task-log-facts .chip')).toContain('Success');
    expect(await pingLog.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await pingLog.page.locator('dialog button[value=rerun]').count()).toBe(1);
    expect(await pingLog.page.locator('dialog button[value=stop]').count()).toBe(0);
    await screenshot(pingLog.page, 'task-log-success');

    // The history page opened before both tasks got both rows and their final statuses live.
    await history.page.waitForSelector(`[data-task="${pingId}"] .chip[data-status=success]`, { timeout: 10_000 });
    await history.page.waitForSelector(`[data-task="${sleepId}"] .chip[data-status=stopped]`, { timeout: 10_000 });
    const pingRow = await history.page.innerText(`[data-task="${pingId}"]`);
    expect(pingRow).toContain('Ping Site');
    expect(pingRow).toContain('Admin');
    await screenshot(history.page, 'history-with-tasks');
    expect([...history.errors, ...pingLog.errors, ...sleepLog.errors]).toEqual([]);
    await Promise.all([history.page.close(), pingLog.page.close(), sleepLog.page.close()]);
    // its own waits allow a real ansible run up to 60 s on a loaded machine: the default 30 s cut them short
  }, 120_000);

  it('reruns a finished task from its dialog and opens the new task', async () => {
    const { page, errors } = await openPage();
    const [last] = await api.get<{ id: number; tpl_alias: string }[]>(`/api/project/${projectId}/tasks/last?limit=1`);
    await page.goto(`${server.url}/project/${projectId}/history?t=${last!.id}`);
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    await Promise.all([page.waitForURL((u) => u.searchParams.get('t') !== String(last!.id)), page.click('dialog button[value=rerun]')]);
    const rerunId = Number(new URL(page.url()).searchParams.get('t'));
    expect(rerunId).toBeGreaterThan(last!.id);
    const rerun = await api.get<{ template_id: number; message: string }>(`/api/project/${projectId}/tasks/${rerunId}`);
    expect(rerun.message).toBeTruthy();
    await page.waitForSelector('dialog .task-log-facts .chip[data-status=success]', { timeout: 60_000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the build version on the Build task and on the Deploy to Dev task it autoran', async () => {
    const templates = await api.get<{ id: number; name: string }[]>(`/api/project/${projectId}/templates`);
    const buildId = await api.runTask(projectId, { template_id: templates.find((t) => t.name === 'Build')!.id });
    expect((await waitForTask(server.deps.db, buildId, undefined, 60_000)).status).toBe('success');
    const deploy = await waitForDeploy(buildId);
    expect((await waitForTask(server.deps.db, deploy, undefined, 60_000)).status).toBe('success');
    const { page } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history`);
    expect(await page.innerText(`[data-task="${buildId}"] td:first-child a`)).toMatch(/Build$/);
    expect(await page.innerText(`[data-task="${buildId}"] td:last-child`)).toBe('1.0.0');
    expect(await page.innerText(`[data-task="${deploy}"] td:first-child a`)).toMatch(/Deploy to Dev$/);
    expect(await page.innerText(`[data-task="${deploy}"] td:last-child`)).toBe('1.0.0');
    await page.close();
  });

  it('offers Confirm and Reject while a terraform plan waits for confirmation; Reject ends it Rejected with a raw log', async () => {
    const { db } = server.deps;
    const ping = (await api.get<{ repository_id: number }[]>(`/api/project/${projectId}/templates`))[0]!;
    const plan = await insertTemplate(db, projectId, { name: 'Plan infra', app: 'terraform', playbook: '', repository_id: ping.repository_id });
    const taskId = await api.runTask(projectId, { template_id: plan.id });
    await waitForTask(db, taskId, hasStatus('waiting_confirmation'), 60_000);
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history?t=${taskId}`);
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    expect(await page.textContent('dialog .task-log-facts .chip')).toContain('Waiting confirmation');
    expect(await page.locator('dialog button[value=confirm]').count()).toBe(1);
    expect(await page.locator('dialog a:has-text("Raw log")').count()).toBe(0);
    expect((await rowText(page)).join('\n')).toContain('Plan: 1 to add');
    await screenshot(page, 'task-log-confirmation');
    await page.click('dialog button[value=reject]');
    await page.waitForSelector('dialog .task-log-facts .chip[data-status=rejected]', { timeout: 15_000 });
    // the finished task's dialog, whole: its Raw log link stands where the buttons were
    await page.waitForSelector('dialog a:has-text("Raw log")', { timeout: 15_000 });
    expect(await page.locator('dialog button[value=confirm]').count()).toBe(0);
    expect(await page.locator('dialog a:has-text("Raw log")').count()).toBe(1);
    expect((await waitForTask(db, taskId)).status).toBe('rejected');
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The task the Build task's success autoran (Deploy to Dev has autorun). */
async function waitForDeploy(buildId: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const row = await server.deps.db.selectFrom('task').select('id').where('build_task_id', '=', buildId).executeTakeFirst();
    if (row) return row.id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no task was autorun after build ${buildId}`);
}
