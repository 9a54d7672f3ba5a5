import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertFinishedTask, insertScriptProject } from './support/real-tasks.ts';

/** The template dialog's Container box, the template's details, the project's default image and a task's Details tab (issue 47). */
let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let registryKey = 0;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  api = await adminApi(server);
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
  registryKey = (await api.send<{ id: number }>('POST', `/api/project/${fx.project.id}/keys`, {
    name: 'Quay robot', type: 'login_password', login_password: { login: 'robot', password: 'registry-pass' },
  })).id;
  const first = await context.newPage();
  await signIn(first, server.url, `/project/${fx.project.id}/history`);
  await first.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(path: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(server.url + path);
  return page;
}
const save = (page: Page) => follow(page, 'dialog footer button[type=submit]');

describe('execution environments in the console', () => {
  it("edits a template's container in its dialog: the API's own messages under the fields, then every setting kept and shown", { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${fx.project.id}/templates/${fx.template.id}/edit`);
    const box = page.locator('fieldset[data-field=executor]');
    expect(await box.locator('legend').textContent()).toBe('Container');
    expect(await box.locator('input[name=executor_image]').getAttribute('placeholder')).toBe('On the host');
    await box.locator('input[name=executor_image]').fill('--privileged');
    await box.locator('input[name=executor_cpus]').fill('lots');
    await save(page);
    await page.waitForSelector('[data-field=executor_image] .field-error');
    expect(await page.locator('[data-field=executor_image] .field-error').textContent()).toBe('is not an image reference such as registry.example.com/team/ansible:2.16');
    expect(await page.locator('[data-field=executor_cpus] .field-error').textContent()).toBe('must be a number of CPUs such as 1.5');
    // what was typed stays
    expect(await page.inputValue('input[name=executor_image]')).toBe('--privileged');

    await page.fill('input[name=executor_image]', 'quay.io/team/ansible:2.19');
    await page.selectOption('select[name=executor_network]', 'none');
    await page.fill('input[name=executor_cpus]', '1.5');
    await page.fill('input[name=executor_memory]', '512m');
    await page.fill('input[name=executor_user]', '1000:1000');
    await page.selectOption('select[name=executor_pull]', 'never');
    await page.selectOption('select[name=executor_registry_key_id]', String(registryKey));
    await screenshot(page, 'template-container-dialog');
    await save(page);
    expect(new URL(page.url()).pathname).toBe(`/project/${fx.project.id}/templates/${fx.template.id}/tasks`);
    expect(await api.get(`/api/project/${fx.project.id}/templates/${fx.template.id}`)).toMatchObject({
      executor_image: 'quay.io/team/ansible:2.19', executor_network: 'none', executor_cpus: 1.5, executor_memory: '512m',
      executor_user: '1000:1000', executor_pull: 'never', executor_registry_key_id: registryKey,
    });

    await page.goto(`${server.url}/project/${fx.project.id}/templates/${fx.template.id}/details`);
    const details = await page.innerText('main');
    for (const shown of ['Container image', 'quay.io/team/ansible:2.19', 'Network', 'None', 'CPUs', '1.5', 'Memory', '512m', 'Run as user', '1000:1000', 'Never (local images)']) {
      expect(details).toContain(shown);
    }
    await screenshot(page, 'template-container-details');
    await page.close();
  });

  it("keeps the project's default image in its settings, shown to templates without their own", { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${fx.project.id}/settings`);
    await page.fill('input[name=executor_image]', 'not an image');
    await follow(page, 'form:has(input[name=executor_image]) button[type=submit]');
    expect(await page.locator('[data-field=executor_image] .field-error').textContent()).toContain('is not an image reference');
    expect(await page.inputValue('input[name=executor_image]')).toBe('not an image');
    await page.fill('input[name=executor_image]', 'localhost/team/base:1');
    await follow(page, 'form:has(input[name=executor_image]) button[type=submit]');
    expect((await api.get<{ executor_image: string }>(`/api/project/${fx.project.id}`)).executor_image).toBe('localhost/team/base:1');
    expect(await page.inputValue('input[name=executor_image]')).toBe('localhost/team/base:1');
    await page.goto(`${server.url}/project/${fx.project.id}/templates/new/edit?app=bash`);
    expect(await page.locator('input[name=executor_image]').getAttribute('placeholder')).toBe('localhost/team/base:1');
    await page.close();
  });

  it('shows the image a task ran in on its Details tab, and nothing of the kind for a task on the host', { timeout: 300_000 }, async () => {
    const inContainer = await insertFinishedTask(server, fx, 3);
    await server.deps.db.updateTable('task').set({ executor_image: 'quay.io/team/ansible:2.19' }).where('id', '=', inContainer).execute();
    const onHost = await insertFinishedTask(server, fx, 3);
    const page = await openPage(`/project/${fx.project.id}/history?t=${inContainer}&tab=details`);
    const shown = await page.innerText('dialog .task-details');
    expect(shown).toContain('Container image');
    expect(shown).toContain('quay.io/team/ansible:2.19');
    await page.goto(`${server.url}/project/${fx.project.id}/history?t=${onHost}&tab=details`);
    expect(await page.innerText('dialog .task-details')).not.toContain('Container image');
    await page.close();
  });
});
