import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { adminApi, waitForTask } from './support/real-tasks.ts';

/**
 * What a new user meets in the first hour (issue 29): the demo project from an empty form, the
 * demo's build and deploy naming one version, branches of the demo's file:// repository, the
 * drawer keeping the project on global pages, one name per concept, true status lines.
 */
let server: ConsoleServer;
let browser: Browser;
let api: Awaited<ReturnType<typeof adminApi>>;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  api = await adminApi(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const SLOW = 180_000;
const WIDTHS = [1280, 375] as const;

const openPage = (width: number, javaScriptEnabled = true) => signedInPage(browser, server.url, width, javaScriptEnabled);

interface Template { id: number; name: string; repository_id: number }

/** A demo project made through the API, with its templates by name. */
async function demoProject(name: string) {
  const project = await api.send<{ id: number }>('POST', '/api/projects', { name, demo: true });
  const templates = await api.get<Template[]>(`/api/project/${project.id}/templates`);
  const byName = (wanted: string) => templates.find((tpl) => tpl.name === wanted)!;
  return { id: project.id, byName };
}

describe('the demo project', () => {
  it('is created from an empty new-project form, with and without JavaScript, at 1280 and 375 px', async () => {
    for (const width of WIDTHS) {
      for (const js of [true, false]) {
        const page = await openPage(width, js);
        await page.goto(`${server.url}/project/new`);
        expect(await page.inputValue('input[name=name]')).toBe('');
        await Promise.all([
          page.waitForURL((url) => /^\/project\/\d+\/history$/.test(url.pathname), { timeout: 60_000 }),
          page.getByRole('button', { name: 'Create demo project' }).click(),
        ]);
        expect(await page.locator('.project-selector summary').textContent(), `${width} px, JS ${js}`).toContain('Demo project');
        const id = Number(new URL(page.url()).pathname.split('/')[2]);
        const templates = await api.get<Template[]>(`/api/project/${id}/templates`);
        expect(templates.map((tpl) => tpl.name).sort()).toEqual(['Build', 'Deploy to Dev', 'Deploy to Production', 'Ping Site']);
        if (width === 375 && !js) await screenshot(page, 'first-hour-demo-created-375');
        await page.context().close();
      }
    }
  }, SLOW);

  it('builds and deploys one version: both logs name the version the build shows', async () => {
    const demo = await demoProject('Versions');
    const buildId = await api.runTask(demo.id, { template_id: demo.byName('Build').id });
    const build = await waitForTask(server.deps.db, buildId, undefined, 90_000);
    expect(build.status).toBe('success');
    const { version } = await api.get<{ version: string }>(`/api/project/${demo.id}/tasks/${buildId}`);
    expect(version).toBe('1.0.0');
    // the build's success starts "Deploy to Dev" (autorun)
    let deployId = 0;
    for (let i = 0; i < 300 && !deployId; i++) {
      const deploy = await server.deps.db.selectFrom('task').select('id').where('template_id', '=', demo.byName('Deploy to Dev').id).executeTakeFirst();
      if (deploy) deployId = deploy.id;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await waitForTask(server.deps.db, deployId, undefined, 90_000)).status).toBe('success');
    for (const width of WIDTHS) {
      const page = await openPage(width, false);
      await page.goto(`${server.url}/project/${demo.id}/history?t=${buildId}`);
      expect(await page.locator('dialog .log').textContent()).toContain(`Built demo site version ${version} into build/index.html`);
      await page.goto(`${server.url}/project/${demo.id}/history?t=${deployId}`);
      const deployLog = await page.locator('dialog .log').textContent();
      expect(deployLog).toContain(`Deploying demo site version ${version} to dev`);
      expect(deployLog).toContain(`Deployed version ${version} to dev`);
      await page.context().close();
    }
  }, SLOW);

  it('offers the branches of its file:// repository in the template dialog, and no request for them fails', async () => {
    const demo = await demoProject('Branches');
    const ping = demo.byName('Ping Site');
    for (const width of WIDTHS) {
      const page = await openPage(width);
      const failed: string[] = [];
      page.on('response', (res) => { if (res.url().includes('/branches') && res.status() >= 400) failed.push(`${res.status()} ${res.url()}`); });
      await page.goto(`${server.url}/project/${demo.id}/templates/${ping.id}/edit`);
      const offered = () => page.$$eval('#tpl-branches option', (options) => options.map((o) => (o as HTMLOptionElement).value));
      expect(await offered()).toEqual(['main']);
      // choosing the repository again asks the API from the browser
      const asked = page.waitForResponse((res) => res.url().endsWith(`/repositories/${ping.repository_id}/branches`));
      await page.locator('select[data-branch-source]').dispatchEvent('change');
      expect((await asked).status()).toBe(200);
      await page.waitForFunction(() => document.querySelectorAll('#tpl-branches option').length > 0);
      expect(await offered()).toEqual(['main']);
      expect(failed).toEqual([]);
      await page.context().close();
    }
  }, SLOW);
});

describe('pages outside a project', () => {
  it('keep the project last visited selected in the drawer, with its entries, at 1280 and 375 px', async () => {
    const first = await api.send<{ id: number }>('POST', '/api/projects', { name: 'Alpha site' });
    const last = await api.send<{ id: number }>('POST', '/api/projects', { name: 'Zulu site' });
    expect(first.id).toBeLessThan(last.id);
    const admin = await server.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
    for (const width of WIDTHS) {
      const page = await openPage(width, false);
      await page.goto(`${server.url}/project/${last.id}/templates`);
      for (const path of ['/users', '/apps', '/tokens', `/users/${admin.id}/edit`, '/tasks']) {
        await page.goto(server.url + path);
        expect(await page.locator('.drawer .project-selector summary').textContent(), `${path} at ${width} px`).toContain('Zulu site');
        const entries = await page.$$eval('.drawer nav a', (links) => links.map((a) => a.getAttribute('href')));
        expect(entries, path).toContain(`/project/${last.id}/templates`);
        expect(await page.locator('.drawer').textContent()).not.toContain('No project selected');
      }
      if (width === 375) {
        await page.locator('.drawer-button').click();
        await screenshot(page, 'first-hour-tasks-drawer-375');
      }
      await page.context().close();
    }
  }, SLOW);
});

describe('one name per concept', () => {
  it('a script template\'s empty filename is named "Script filename" in its error, its variable group "Variable group"', async () => {
    const project = await api.send<{ id: number }>('POST', '/api/projects', { name: 'Names' });
    for (const width of WIDTHS) {
      const page = await openPage(width);
      await page.goto(`${server.url}/project/${project.id}/templates/new/edit?app=bash`);
      await page.fill('input[name=name]', 'Backup');
      // the browser's own checks would stop the form first: the server's messages are under test
      await page.$eval('form:has(input[name=playbook])', (form) => { (form as HTMLFormElement).noValidate = true; });
      await follow(page, page.locator('dialog footer .btn-primary'));
      await page.waitForSelector('#playbook-error');
      const field = (name: string) => page.locator(`label:has([name=${name}]), .field:has([name=${name}])`).first();
      expect(await field('playbook').textContent()).toContain('Script filename');
      expect(await page.textContent('#playbook-error')).toBe('Script filename is required');
      expect(await page.textContent('#environment_id-error')).toBe('Variable group is required');
      await screenshot(page, `first-hour-script-errors-${width}`);
      await page.context().close();
    }
  }, SLOW);

  it('the variable groups page\'s button names the dialog it opens', async () => {
    const project = await api.send<{ id: number }>('POST', '/api/projects', { name: 'Groups' });
    for (const width of WIDTHS) {
      const page = await openPage(width, false);
      await page.goto(`${server.url}/project/${project.id}/environment`);
      const button = page.locator('main a[role=button][href*="edit=new"]');
      const label = (await button.textContent())!.trim();
      await Promise.all([page.waitForURL(/edit=new/), button.click()]);
      expect(label).toBe('New variable group');
      expect((await page.locator('dialog[open] h2').first().textContent())!.trim()).toBe(label);
      await page.context().close();
    }
  }, SLOW);
});

describe('status lines', () => {
  it('carry the reason phrase of their code: a refused sign-in is "401 Unauthorized", a refused form "400 Bad Request"', async () => {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/auth/login`);
      await page.fill('input[name=auth]', 'admin');
      await page.fill('input[name=password]', 'not-the-password');
      const [refused] = await Promise.all([page.waitForResponse((res) => res.request().method() === 'POST'), page.click('button[type=submit]')]);
      expect([refused.status(), refused.statusText()]).toEqual([401, 'Unauthorized']);
      await context.close();
      const signedIn = await openPage(width);
      await signedIn.goto(`${server.url}/project/new`);
      await signedIn.$eval('form[action="/project/new"]', (form) => { (form as HTMLFormElement).noValidate = true; });
      const [invalid] = await Promise.all([signedIn.waitForResponse((res) => res.request().method() === 'POST'), signedIn.getByRole('button', { name: 'Create', exact: true }).click()]);
      expect([invalid.status(), invalid.statusText()]).toEqual([400, 'Bad Request']);
      await signedIn.context().close();
    }
  }, SLOW);
});
