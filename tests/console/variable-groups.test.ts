import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { insertScriptProject, waitForTask } from './support/real-tasks.ts';
import { hasStatus } from '../support/engine.ts';
import { parseTaskEnvironmentIds } from '../../src/server/domain/environments/environment-list.ts';

const SLOW_MS = 120_000;
let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let base = 0;
let override = 0;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  fx = await insertScriptProject(server, { 'run.sh': 'echo "STAGE=$STAGE"\n' }, 'run.sh', 'Show stage');
  const { db } = server.deps;
  await db.updateTable('environment').set({ name: 'Base', env: JSON.stringify({ STAGE: 'base' }) }).where('id', '=', fx.environment.id).execute();
  base = fx.environment.id;
  override = (await db.insertInto('environment').values({ project_id: fx.project.id, name: 'Override', json: '{}', env: JSON.stringify({ STAGE: 'override' }), password: null })
    .returning('id').executeTakeFirstOrThrow()).id;
  const page = await context.newPage();
  await signIn(page, server.url, `/project/${fx.project.id}/history`);
  await page.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
  return { page, errors };
}

async function fitsPhone(page: Page, name: string) {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('several variable groups in the console', () => {
  it('the template dialog keeps the groups in order and the launch-choice switch', async () => {
    const { page, errors } = await openPage(`/project/${fx.project.id}/templates/${fx.template.id}/edit`);
    await page.selectOption('select[name=environment_id]', String(base));
    const further = page.locator('select[name=more_environment_ids]');
    expect(await further.count()).toBe(2);
    await further.first().selectOption(String(override));
    await page.check('input[name=allow_override_environment]');
    await fitsPhone(page, 'template-variable-groups');
    await Promise.all([page.waitForURL(/flash=template_saved/), page.click('dialog footer button[type=submit]')]);
    const stored = await fetchTemplate();
    expect(stored.environment_ids).toEqual([base, override]);
    expect(stored.task_params.allow_override_environment).toBe(true);

    // shown again in order; choosing a group twice is refused in the dialog
    await page.goto(`${server.url}/project/${fx.project.id}/templates/${fx.template.id}/edit`);
    expect(await page.locator('select[name=more_environment_ids]').first().inputValue()).toBe(String(override));
    await page.locator('select[name=more_environment_ids]').nth(1).selectOption(String(base));
    await page.click('dialog footer button[type=submit]');
    await expect.poll(() => page.locator('[data-field=more_environment_ids] .field-error, #more_environment_ids-error').first().textContent()).toBe('A variable group is chosen twice');
    expect((await fetchTemplate()).environment_ids).toEqual([base, override]);

    // the template's Details page lists them in order
    await page.goto(`${server.url}/project/${fx.project.id}/templates/${fx.template.id}/details`);
    expect(await page.locator('main').textContent()).toContain('Base → Override');
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);

  it('the launch dialog offers the template\'s groups in order, runs with the chosen order and Details names them', async () => {
    await server.deps.db.updateTable('template').set({ task_params: JSON.stringify({ allow_override_environment: true }) }).where('id', '=', fx.template.id).execute();
    const { page, errors } = await openPage(`/project/${fx.project.id}/history?new_task=${fx.template.id}`);
    const dialog = page.locator('dialog.launch-dialog');
    const slots = () => dialog.locator('select[name=environment_ids]');
    expect(await slots().evaluateAll((s) => s.map((x) => (x as HTMLSelectElement).value))).toEqual([String(base), String(override), '']);
    await slots().nth(0).selectOption(String(override));
    await slots().nth(1).selectOption(String(base));
    expect(await slots().evaluateAll((s) => s.map((x) => (x as HTMLSelectElement).value))).toEqual([String(override), String(base), '']);
    await fitsPhone(page, 'launch-variable-groups');
    await Promise.all([page.waitForURL(/[?&]t=\d+/), dialog.locator('button[type=submit]').click()]);
    const taskId = Number(new URL(page.url()).searchParams.get('t'));
    const done = await waitForTask(server.deps.db, taskId, hasStatus('success'));
    expect(parseTaskEnvironmentIds(done.environment_ids)).toEqual([override, base]);

    await page.goto(`${server.url}/project/${fx.project.id}/history?t=${taskId}&tab=details`);
    const facts = page.locator('dl.task-details');
    await expect.poll(() => facts.textContent()).toContain('Variable groupsOverride → Base');
    await fitsPhone(page, 'task-details-variable-groups');
    expect(errors).toEqual([]);
    await page.close();
  }, SLOW_MS);
});

async function fetchTemplate() {
  const { db } = server.deps;
  const row = await db.selectFrom('template').select('task_params').where('id', '=', fx.template.id).executeTakeFirstOrThrow();
  const groups = await db.selectFrom('template_environment').select('environment_id').where('template_id', '=', fx.template.id).orderBy('position').execute();
  return { environment_ids: groups.map((g) => g.environment_id), task_params: JSON.parse(row.task_params) as Record<string, unknown> };
}
