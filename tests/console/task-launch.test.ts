import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertFinishedTask, insertScriptProject, waitForTask } from './support/real-tasks.ts';
import { hasStatus } from '../support/engine.ts';

const SLOW_MS = 120_000;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let projectId = 0;
let templateId = 0;

const SURVEY = [
  { name: 'target', title: 'Target', type: 'enum', required: true, values: [{ name: 'Staging', value: 'staging' }, { name: 'Production', value: 'production' }] },
  { name: 'replicas', title: 'Replicas', type: 'int', required: false },
  { name: 'token', title: 'Token', type: 'secret', required: false },
];

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  api = await adminApi(server);
  // the bash app passes survey answers as name=value arguments
  fx = await insertScriptProject(server, { 'run.sh': 'for a in "$@"; do echo "arg: $a"; done\nfor i in $(seq 1 300); do echo "step $i done"; done\n' }, 'run.sh', 'Deploy web');
  projectId = fx.project.id;
  templateId = fx.template.id;
  await server.deps.db.updateTable('template').set({ survey_vars: JSON.stringify(SURVEY) }).where('id', '=', templateId).execute();
  const page = await context.newPage();
  await signIn(page, server.url, `/project/${projectId}/history`);
  await page.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(ctx = context): Promise<{ page: Page; errors: string[] }> {
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

const hydrated = (page: Page) => page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));

describe('task launch dialog (?new_task=)', () => {
  it('shows the survey fields by type, refuses an empty required answer and opens the new task\'s log', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history?new_task=${templateId}`);
    await hydrated(page);
    const dialog = page.locator('dialog.launch-dialog');
    expect(await dialog.locator('h2').textContent()).toBe('Run Deploy web');
    expect(await dialog.locator('select[name=var_target] option').allTextContents()).toEqual(['— choose —', 'Staging', 'Production']);
    expect(await dialog.locator('input[name=var_token]').getAttribute('type')).toBe('password');
    expect(await dialog.locator('input[name=var_replicas]').getAttribute('inputmode')).toBe('numeric');
    await screenshot(page, 'task-launch-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'task-launch-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    await dialog.locator('button[type=submit]').click();
    await expect.poll(async () => dialog.locator('[data-field=var_target] .field-error').textContent(), { timeout: 10_000 }).toBe('Target is required');
    expect(page.url()).toContain(`new_task=${templateId}`);

    // int answers take digits only: what is typed stays, with the message, until it is right
    await dialog.locator('input[name=var_replicas]').pressSequentially('3x');
    expect(await dialog.locator('input[name=var_replicas]').inputValue()).toBe('3x');
    expect(await dialog.locator('[data-field=var_replicas] .field-error').textContent()).toBe('Replicas must be integer');
    await dialog.locator('input[name=var_replicas]').press('Backspace');
    expect(await dialog.locator('[data-field=var_replicas] .field-error').count()).toBe(0);
    await dialog.locator('select[name=var_target]').selectOption('staging');
    expect(await dialog.locator('[data-field=var_target] .field-error').count()).toBe(0);
    await dialog.locator('input[name=var_token]').fill('s3cret-value');
    await dialog.locator('input[name=message]').fill('Launched from the dialog');
    await Promise.all([page.waitForURL(/[?&]t=\d+/), dialog.locator('button[type=submit]').click()]);
    const url = new URL(page.url());
    expect(url.searchParams.has('new_task')).toBe(false);
    const taskId = Number(url.searchParams.get('t'));
    await waitForTask(server.deps.db, taskId, hasStatus('success'));
    const task = await api.get<{ message: string; template_id: number }>(`/api/project/${projectId}/tasks/${taskId}`);
    expect(task).toMatchObject({ message: 'Launched from the dialog', template_id: templateId });
    await page.reload();
    await hydrated(page);
    await page.waitForSelector('dialog .task-log-facts .chip[data-status=success]');
    const rows = await page.$$eval('.log-row', (r) => r.map((x) => x.textContent ?? ''));
    expect(rows.join('\n')).toContain('arg: target=staging');
    expect(rows.join('\n')).toContain('arg: replicas=3');
    expect(rows.join('\n')).not.toContain('s3cret-value');
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('never rewrites an integer answer: -5, 1e3 and abc stay as typed with the seed message beside the field, and nothing starts until it is right', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history?new_task=${templateId}`);
    await hydrated(page);
    const dialog = page.locator('dialog.launch-dialog');
    const replicas = dialog.locator('input[name=var_replicas]');
    const message = () => dialog.locator('[data-field=var_replicas] .field-error');
    await dialog.locator('select[name=var_target]').selectOption('staging');
    for (const typed of ['-5', '1e3', 'abc']) {
      await replicas.fill('');
      await replicas.pressSequentially(typed);
      expect(await replicas.inputValue(), typed).toBe(typed);
      // beside the field at once, before any submit, in the seed's wording
      expect(await message().textContent(), typed).toBe('Replicas must be integer');
    }
    const before = await api.get<unknown[]>(`/api/project/${projectId}/tasks`);
    await dialog.locator('button[type=submit]').click();
    expect(await replicas.inputValue()).toBe('abc');
    expect(await message().textContent()).toBe('Replicas must be integer');
    expect(page.url()).toContain(`new_task=${templateId}`);
    expect(await api.get<unknown[]>(`/api/project/${projectId}/tasks`)).toHaveLength(before.length);
    // fixed: the message goes as the value becomes right
    await replicas.fill('5');
    expect(await message().count()).toBe(0);
    expect(await replicas.getAttribute('aria-invalid')).toBeNull();
    await screenshot(page, 'task-launch-int-1280');
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('works without JavaScript: the form loop answers the seed messages, then starts the task', async () => {
    const plain = await newContext(browser, { javaScriptEnabled: false });
    const page = await plain.newPage();
    page.setDefaultTimeout(15_000);
    await signIn(page, server.url, `/project/${projectId}/history?new_task=${templateId}`);
    const dialog = page.locator('dialog.launch-dialog');
    await dialog.locator('input[name=var_replicas]').fill('many');
    const refused = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), dialog.locator('button[type=submit]').click()]);
    expect(refused[0].status()).toBe(400);
    expect(await dialog.locator('[data-field=var_target] .field-error').textContent()).toBe('Target is required');
    expect(await dialog.locator('[data-field=var_replicas] .field-error').textContent()).toBe('Replicas must be integer');
    expect(await dialog.locator('input[name=var_replicas]').inputValue()).toBe('many');
    await dialog.locator('select[name=var_target]').selectOption('production');
    await dialog.locator('input[name=var_replicas]').fill('2');
    await Promise.all([page.waitForURL(/[?&]t=\d+/), dialog.locator('button[type=submit]').click()]);
    const taskId = Number(new URL(page.url()).searchParams.get('t'));
    expect(await page.locator('dialog.task-log').count()).toBe(1);
    await waitForTask(server.deps.db, taskId, hasStatus('success'));
    const log = await fetch(`${server.url}/api/project/${projectId}/tasks/${taskId}/output/download`, { headers: { cookie: api.cookie } });
    expect(await log.text()).toContain('arg: target=production');
    await plain.close();
  }, SLOW_MS);

  it('offers an ansible template\'s overrides, debug level and a deploy\'s build versions', async () => {
    const { db } = server.deps;
    const build = await fx.addTemplate('Build app', 'run.sh');
    await db.updateTable('template').set({ type: 'build', start_version: '1.0.0' }).where('id', '=', build.id).execute();
    const buildTask = await insertFinishedTask(server, { ...fx, template: build }, 1);
    await db.updateTable('task').set({ version: '1.0.7' }).where('id', '=', buildTask).execute();
    const deploy = await fx.addTemplate('Deploy app', 'site.yml');
    await db.updateTable('template').set({
      app: 'ansible', type: 'deploy', build_template_id: build.id, allow_override_args_in_task: 1, allow_override_branch_in_task: 1,
      task_params: JSON.stringify({ allow_override_limit: true, allow_override_tags: true, allow_override_skip_tags: true, allow_override_inventory: true }),
    }).where('id', '=', deploy.id).execute();
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history?new_task=${deploy.id}`);
    await hydrated(page);
    const dialog = page.locator('dialog.launch-dialog');
    expect(await dialog.locator('select[name=build_task_id] option').allTextContents()).toEqual(['— choose —', `1.0.7 (#${buildTask})`]);
    for (const name of ['git_branch', 'inventory_id', 'arguments', 'limit', 'tags', 'skip_tags', 'dry_run', 'diff', 'debug']) {
      expect(await dialog.locator(`[name=${name}]`).count(), name).toBe(1);
    }
    expect(await dialog.locator('[name=debug_level]').count()).toBe(0);
    await dialog.locator('[name=debug]').check();
    expect(await dialog.locator('select[name=debug_level]').inputValue()).toBe('4');
    await dialog.locator('button[type=submit]').click();
    await expect.poll(async () => dialog.locator('[data-field=build_task_id] .field-error').textContent(), { timeout: 10_000 }).toBe('Build version is required');
    await screenshot(page, 'task-launch-deploy-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'task-launch-deploy-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('lets an ansible run skip Galaxy requirements, checked by default when the template skips them', async () => {
    const playbook = '- hosts: localhost\n  gather_facts: false\n  tasks:\n    - debug:\n        msg: played\n';
    const ansible = await insertScriptProject(server, { 'site.yml': playbook }, 'site.yml', 'Play');
    await server.deps.db.updateTable('template').set({ app: 'ansible', task_params: JSON.stringify({ skip_galaxy_install: true }) })
      .where('id', '=', ansible.template.id).execute();
    const launch = async (skip: boolean) => {
      const { page, errors } = await openPage();
      await page.goto(`${server.url}/project/${ansible.project.id}/history?new_task=${ansible.template.id}`);
      await hydrated(page);
      const dialog = page.locator('dialog.launch-dialog');
      const box = dialog.locator('input[name=skip_galaxy_install]');
      expect(await box.isChecked()).toBe(true);
      if (!skip) await box.uncheck();
      await Promise.all([page.waitForURL(/[?&]t=\d+/), dialog.locator('button[type=submit]').click()]);
      const taskId = Number(new URL(page.url()).searchParams.get('t'));
      expect(errors).toEqual([]);
      await page.close();
      await waitForTask(server.deps.db, taskId, hasStatus('success'));
      const params = await fetch(`${server.url}/api/project/${ansible.project.id}/tasks/${taskId}`, { headers: { cookie: api.cookie } });
      expect(((await params.json()) as { params: Record<string, unknown> }).params).toMatchObject({ skip_galaxy_install: skip });
      const log = await fetch(`${server.url}/api/project/${ansible.project.id}/tasks/${taskId}/output/download`, { headers: { cookie: api.cookie } });
      return log.text();
    };
    const skipped = await launch(true);
    expect(skipped).toContain('played');
    expect(skipped).not.toContain('galaxy');
    const installed = await launch(false);
    expect(installed).toContain('No collections/requirements.yml file found. Skip galaxy collection install process.');
  }, SLOW_MS);

  it('shows a missing template as an empty dialog', async () => {
    const { page } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history?new_task=999999`);
    expect(await page.locator('dialog').textContent()).toContain('This template does not exist or is not available.');
    await page.close();
  });
});

describe('task log: search over the whole log, jump, download', () => {
  it('finds a line far outside the loaded rows, jumps to it, steps through matches and downloads the log', async () => {
    const taskId = await insertFinishedTask(server, fx, 50_000, (n) => (n % 10_000 === 0 ? `needle at ${n}` : `line ${n}`));
    const { page, errors } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history?t=${taskId}`);
    await hydrated(page);
    expect(await page.locator('dialog .task-actions button[value=rerun]').textContent()).toBe('Run again');
    await page.fill('.log-search input[name=q]', 'NEEDLE');
    await page.click('.log-search button[type=submit]');
    await expect.poll(async () => page.locator('.log-search-results li').count(), { timeout: 10_000 }).toBe(5);
    expect(await page.locator('.log-search-results li .log-no').allTextContents()).toEqual(['10000', '20000', '30000', '40000', '50000']);
    expect(await page.textContent('.log-search-position')).toBe('1 of 5');
    await expect.poll(async () => page.locator('.log-row-marked').textContent(), { timeout: 10_000 }).toContain('needle at 10000');
    await page.click('.log-search button[aria-label="Next match"]');
    await expect.poll(async () => page.locator('.log-row-marked').textContent(), { timeout: 10_000 }).toContain('needle at 20000');
    await page.click('.log-search button[aria-label="Previous match"]');
    await page.click('.log-search button[aria-label="Previous match"]');
    expect(await page.textContent('.log-search-position')).toBe('5 of 5');
    await expect.poll(async () => page.locator('.log-row-marked').textContent(), { timeout: 10_000 }).toContain('needle at 50000');
    await page.click('.log-search-results li:nth-child(3) button');
    await expect.poll(async () => page.locator('.log-row-marked').textContent(), { timeout: 10_000 }).toContain('needle at 30000');
    expect(await page.locator('.log-row-marked .log-no').textContent()).toBe('30000');
    await screenshot(page, 'task-log-search-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'task-log-search-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.fill('.log-search input[name=q]', 'no such text');
    await page.click('.log-search button[type=submit]');
    await expect.poll(async () => page.textContent('.log-search-summary'), { timeout: 10_000 }).toBe('No line matches.');

    const href = await page.getAttribute('.task-actions a[download]', 'href');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.task-actions a[download]')]);
    expect(download.suggestedFilename()).toBe(`task-${taskId}.log`);
    expect(href).toBe(`/api/project/${projectId}/tasks/${taskId}/output/download`);
    const text = await (await fetch(server.url + href, { headers: { cookie: api.cookie } })).text();
    expect(text.split('\n')).toHaveLength(50_001);
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('names the run-again action after the template type and shows the commit', async () => {
    const { db } = server.deps;
    await db.updateTable('template').set({ type: 'build', start_version: '1.0.0' }).where('id', '=', templateId).execute();
    const taskId = await insertFinishedTask(server, fx, 3);
    await db.updateTable('task').set({ commit_hash: '0123456789abcdef0123', commit_message: 'Bump the version of the web server to the newest release candidate' })
      .where('id', '=', taskId).execute();
    const { page } = await openPage();
    await page.goto(`${server.url}/project/${projectId}/history?t=${taskId}`);
    await hydrated(page);
    expect(await page.locator('dialog .task-actions button[value=rerun]').textContent()).toBe('Rebuild');
    expect(await page.locator('.task-log-commit code').textContent()).toBe('0123456789');
    const message = 'Bump the version of the web server to the newest release candidate';
    expect(await page.locator('.task-log-commit').textContent()).toBe(`0123456789 ${message.slice(0, 49)}…`);
    await db.updateTable('template').set({ type: 'deploy' }).where('id', '=', templateId).execute();
    await page.reload();
    await hydrated(page);
    expect(await page.locator('dialog .task-actions button[value=rerun]').textContent()).toBe('Redeploy');
    await db.updateTable('template').set({ type: '', start_version: null }).where('id', '=', templateId).execute();
    await page.close();
  }, SLOW_MS);
});
