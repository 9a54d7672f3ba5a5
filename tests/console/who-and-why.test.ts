import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, ADMIN, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, signIn } from './support/browser.ts';
import { createClient } from './support/http-client.ts';
import { insertProject, insertTemplate } from '../support/fixtures.ts';
import { insertTask } from '../support/project-rows.ts';
import { insertSchedule } from '../support/trigger-fixtures.ts';
import { now } from '../../src/server/lib/time.ts';

/**
 * Who started a task and why a task waits, as the screens say it (issue 46): one wording of the
 * starter on the wall board and in the history (a build's autorun, a schedule, a webhook), the
 * reason beside a waiting task in the history and the active tasks, a schedule's refused firing
 * on the schedules list; and a restore that takes the project's name from the file.
 */
let server: ConsoleServer;
let browser: Browser;
let project: number;
let build: number;
let schedule: number;

async function ended(projectId: number, templateId: number, values: { user_id?: number | null; build_task_id?: number; schedule_id?: number; integration_id?: number }) {
  const task = await insertTask(server.deps.db, { projectId, templateId, status: 'success' });
  await server.deps.db.updateTable('task').set({ ...values, start: new Date(Date.now() - 120_000).toISOString(), end: new Date(Date.now() - 60_000).toISOString() })
    .where('id', '=', task.id).execute();
  return task.id;
}

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const db = server.deps.db;
  const admin = (await db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow()).id;
  project = (await insertProject(db, 'Shop')).id;
  await db.insertInto('project_user').values({ project_id: project, user_id: admin, role: 'owner', created: now() }).execute();
  const buildTpl = await insertTemplate(db, project, { name: 'Build site', type: 'build', start_version: '1.0.0' });
  const deployTpl = await insertTemplate(db, project, { name: 'Deploy site', type: 'deploy', build_template_id: buildTpl.id, autorun: 1 });
  const nightly = await insertTemplate(db, project, { name: 'Nightly report', survey_vars: JSON.stringify([{ name: 'replicas', title: 'Replicas', type: 'int', required: true }]) });
  const gpu = await insertTemplate(db, project, { name: 'Render frames', runner_tag: 'gpu' });
  build = await ended(project, buildTpl.id, { user_id: admin });
  await ended(project, deployTpl.id, { build_task_id: build });
  schedule = (await insertSchedule(db, { project_id: project, template_id: nightly.id, name: 'Every night', cron_format: '0 3 * * *', last_error: 'Replicas is required' })).id;
  await ended(project, nightly.id, { schedule_id: schedule });
  const waiting = await insertTask(db, { projectId: project, templateId: gpu.id, status: 'waiting' });
  await db.updateTable('task').set({ waiting_for: JSON.stringify({ kind: 'runner', tag: 'gpu' }) }).where('id', '=', waiting.id).execute();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ');

describe('who started it, and why it waits', () => {
  it('words the starter of a task the same on the wall board and in the history', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const board = text((await client.get(`/board?projects=${project}`)).html);
    const history = text((await client.get(`/project/${project}/history`)).html);
    expect(board).toContain(`by Autorun (build #${build})`);
    expect(history).toContain(`Autorun (build #${build})`);
    expect(board).toContain(`by Schedule #${schedule}`);
    expect(history).toContain(`Schedule #${schedule}`);
    expect(board).not.toContain('a schedule or webhook');
  });

  it('says beside a waiting task what it waits for, in the history and the active tasks', async () => {
    const client = createClient(server.url);
    await client.signIn();
    expect(text((await client.get(`/project/${project}/history`)).html)).toContain('Waiting for a runner with the tag gpu');
    expect(text((await client.get('/tasks')).html)).toContain('Waiting for a runner with the tag gpu');
  });

  it("shows a schedule's refused firing on the schedules list", async () => {
    const client = createClient(server.url);
    await client.signIn();
    expect(text((await client.get(`/project/${project}/schedule`)).html)).toContain('Last time it started no task: Replicas is required');
  });

  it('restores a project under the name its backup file holds when no other is typed', async () => {
    const backup = (await server.deps.db.selectFrom('project').select('name').where('id', '=', project).executeTakeFirstOrThrow()).name;
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, server.url, '/');
    const file = Buffer.from(JSON.stringify({ meta: { name: 'Shop from the file', alert: false }, keys: [], templates: [] }));
    await page.goto(`${server.url}/project/restore`);
    expect(await page.locator('input[name=name]').getAttribute('required')).toBeNull();
    await page.setInputFiles('input[name=backup]', { name: 'shop.json', mimeType: 'application/json', buffer: file });
    await Promise.all([page.waitForURL(`${server.url}/project/restore`), page.click('form[enctype="multipart/form-data"] button')]);
    await page.waitForSelector('dialog[open]');
    expect(await page.locator('dialog[open]').textContent()).toContain('Shop from the file');
    const names = (await server.deps.db.selectFrom('project').select('name').execute()).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining([backup, 'Shop from the file']));
    await context.close();
  });

  it('writes the changed screens at 1280 and 375 px, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 800 } });
        await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
        const page: Page = await context.newPage();
        await signIn(page, server.url, '/');
        for (const [name, path] of [['board', `/board?projects=${project}`], ['history', `/project/${project}/history`], ['active-tasks', '/tasks'],
          ['schedules', `/project/${project}/schedule`], ['restore', '/project/restore']]) {
          await page.goto(server.url + path);
          if (name === 'board') await page.waitForSelector('#board-grid[data-measured]');
          await screenshot(page, `who-and-why-${name}-${width}-${theme}`, { fullPage: name !== 'board' });
        }
        await context.close();
      }
    }
  }, 300_000);
});
