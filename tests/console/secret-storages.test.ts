import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { startFakeVault, type FakeVault } from '../fakes/vault/fake-vault.ts';

// Secret storages and task tokens in the console, through the browser alone at 1280 and 375 px:
// the key store's Storages tab (create with its messages, test the connection, which keys use
// it, delete), "from storage" in the key and variable-group secret dialogs, and the template
// dialog's JWT section (shown because the server issues tokens; the TTL is checked against its maximum).
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let vault: FakeVault;
let pid: number;
let templateId: number;

const TOKEN = 'hvs.console-reader-7d1a';

beforeAll(async () => {
  vault = await startFakeVault();
  vault.addToken(TOKEN, ['secret/data/']);
  server = await startConsoleServer({ SEMAPHORE_JWT_ENABLED: 'true', SEMAPHORE_JWT_MAX_TTL: '1h' });
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, '/');
  const headers = { Origin: server.url };
  pid = (await (await page.request.post(`${server.url}/api/projects`, { data: { name: 'Vaulted' }, headers })).json()).id;
  const key = await (await page.request.post(`${server.url}/api/project/${pid}/keys`, { data: { name: 'None', type: 'none' }, headers })).json();
  const repo = await (await page.request.post(`${server.url}/api/project/${pid}/repositories`, { data: { name: 'Repo', git_url: '/srv/repo', git_branch: 'main', ssh_key_id: key.id }, headers })).json();
  const env = await (await page.request.post(`${server.url}/api/project/${pid}/environment`, { data: { name: 'Vars', json: '{}' }, headers })).json();
  const tpl = await page.request.post(`${server.url}/api/project/${pid}/templates`, { data: { name: 'Deploy', app: 'bash', playbook: 'run.sh', repository_id: repo.id, environment_id: env.id }, headers });
  templateId = (await tpl.json()).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await vault?.close();
});

const storages = () => server.deps.db.selectFrom('secret_storage').selectAll().where('project_id', '=', pid).orderBy('id').execute();
const fieldError = (p: Page, name: string) => p.locator(`[data-field="${name}"] .field-error`).textContent();
async function submit(p: Page, urlPattern: RegExp): Promise<void> {
  await Promise.all([p.waitForURL(urlPattern), p.click('dialog form button[type=submit]')]);
}
const noOverflow = async (p: Page, width: number) => expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

describe('secret storages and task tokens in the console', { timeout: 180_000 }, () => {
  for (const width of [1280, 375]) {
    it(`creates a storage, tests it, points a key and a secret at it and sees who uses it (${width} px)`, async () => {
      const name = `Vault ${width}`;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/project/${pid}/keys`);
      await Promise.all([page.waitForURL(/\/storages$/), page.click('main a:has-text("Secret storages")')]);
      await Promise.all([page.waitForURL(/edit=new/), page.click('text=New storage')]);
      await submit(page, /edit=new/);
      expect(await fieldError(page, 'name')).toBeTruthy();
      await page.fill('input[name=name]', name);
      await page.fill('input[name=url]', 'ftp://nope');
      await submit(page, /edit=new/);
      expect(await fieldError(page, 'url')).toBe('Use an http:// or https:// address');
      await page.fill('input[name=url]', vault.url);
      await page.check('input[name=auth_method][value=token]');
      await page.fill('input[name=secret]', TOKEN);
      await screenshot(page, `storage-dialog-${width}`);
      await noOverflow(page, width);
      await submit(page, /flash=storage_saved/);
      expect(await page.textContent('.snackbar')).toContain(`Secret storage ${name} saved`);
      const row = (await storages()).find((s) => s.name === name)!;
      expect(row.secret).not.toContain(TOKEN);
      expect(await page.content()).not.toContain(TOKEN);
      expect(await page.textContent(`tr[data-storage="${row.id}"]`)).toContain('Not used yet');

      await Promise.all([page.waitForURL(/flash=storage_test_ok/), page.click(`tr[data-storage="${row.id}"] button:has-text("Test connection")`)]);
      expect(await page.textContent('.snackbar')).toContain(`Secret storage ${name} answered: signed in`);

      // a key whose password is read from the storage
      await page.goto(`${server.url}/project/${pid}/keys?edit=new`);
      await page.fill('input[name=name]', `DB ${width}`);
      await page.check('input[name=type][value=login_password]');
      await page.selectOption('select[name=source_storage_id]', { label: name });
      await page.fill('input[name=login]', 'deployer');
      await submit(page, /edit=new/);
      expect(await fieldError(page, 'source_storage_key')).toBe('Give the path and field, such as ci/deploy#password');
      await page.fill('input[name=source_storage_key]', 'ci/db#password');
      await screenshot(page, `key-from-storage-${width}`);
      await noOverflow(page, width);
      await submit(page, /flash=key_saved/);
      expect(await page.textContent('main table')).toContain(`in ${name}`);
      const key = await server.deps.db.selectFrom('access_key').selectAll().where('name', '=', `DB ${width}`).executeTakeFirstOrThrow();
      expect(key).toMatchObject({ source_storage_id: row.id, source_storage_key: 'ci/db#password' });

      // a variable-group secret read from the storage
      await page.goto(`${server.url}/project/${pid}/environment?edit=new`);
      await page.fill('dialog input[name=name]', `Group ${width}`);
      await page.fill('input[name="secret.0.name"]', 'API_TOKEN');
      await page.selectOption('select[name="secret.0.type"]', 'env');
      await page.selectOption('select[name="secret.0.storage"]', { label: name });
      await page.fill('input[name="secret.0.ref"]', 'ci/api#token');
      await Promise.all([page.waitForURL(/flash=environment_saved/), page.click('dialog button[type=submit]')]);
      const secret = await server.deps.db.selectFrom('access_key').selectAll().where('name', '=', 'env.API_TOKEN').where('source_storage_id', '=', row.id).executeTakeFirstOrThrow();
      expect(secret).toMatchObject({ source_storage_key: 'ci/api#token', secret: null });

      await page.goto(`${server.url}/project/${pid}/storages`);
      expect(await page.textContent(`tr[data-storage="${row.id}"]`)).toContain(`DB ${width}, env.API_TOKEN`);
      await screenshot(page, `storages-${width}`);
      await noOverflow(page, width);
      // in use: the delete is refused with the server's message
      await Promise.all([page.waitForURL(/delete=\d+/), page.click(`tr[data-storage="${row.id}"] >> text=Delete`)]);
      await Promise.all([page.waitForURL(/flash=delete_failed/), page.click('dialog button[type=submit]')]);
      expect(await page.textContent('.snackbar')).toContain('in use');
    });
  }

  it('reports a failed connection test with the storage\'s answer', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/project/${pid}/storages?edit=new`);
    await page.fill('input[name=name]', 'Wrong token');
    await page.fill('input[name=url]', vault.url);
    await page.fill('input[name=secret]', 'hvs.not-known');
    await submit(page, /flash=storage_saved/);
    const row = (await storages()).find((s) => s.name === 'Wrong token')!;
    await Promise.all([page.waitForURL(/flash=storage_test_failed/), page.click(`tr[data-storage="${row.id}"] button:has-text("Test connection")`)]);
    expect(await page.textContent('.snackbar')).toContain('Connection test failed: Wrong token: answered 403: permission denied');
    await Promise.all([page.waitForURL(/delete=\d+/), page.click(`tr[data-storage="${row.id}"] >> text=Delete`)]);
    await Promise.all([page.waitForURL(/flash=storage_deleted/), page.click('dialog button[type=submit]')]);
    expect((await storages()).some((s) => s.name === 'Wrong token')).toBe(false);
  });

  for (const width of [1280, 375]) {
    it(`the template dialog's JWT section: on, audiences, a TTL within the server's maximum (${width} px)`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/project/${pid}/templates/${templateId}/edit`);
      expect(await page.textContent('.tpl-jwt legend')).toBe('Task identity token (JWT)');
      await page.check('input[name=jwt_enabled]');
      await page.fill('textarea[name=jwt_audience]', `https://bao.example.test\nsts-${width}`);
      await page.fill('input[name=jwt_ttl]', '2h');
      // the page is already at …/edit: wait for the refusal itself, not for the URL
      await page.click('.tpl-footer button:has-text("Save")');
      await page.waitForFunction(() => document.querySelector('dialog')?.textContent?.includes('jwt.max_ttl'), null, { timeout: 30_000 });
      expect(await page.textContent('dialog')).toContain('jwt.max_ttl');
      await page.fill('input[name=jwt_ttl]', '15m');
      await screenshot(page, `template-jwt-${width}`);
      await noOverflow(page, width);
      await Promise.all([page.waitForURL(/flash=template_saved/), page.click('.tpl-footer button:has-text("Save")')]);
      const row = await server.deps.db.selectFrom('template').select(['jwt_enabled', 'jwt_audience', 'jwt_ttl']).where('id', '=', templateId).executeTakeFirstOrThrow();
      expect(row).toEqual({ jwt_enabled: 1, jwt_audience: JSON.stringify(['https://bao.example.test', `sts-${width}`]), jwt_ttl: '15m' });
    });
  }
});

describe('without task tokens', { timeout: 120_000 }, () => {
  it('the template dialog has no JWT section', async () => {
    const plain = await startConsoleServer();
    const other = await (await newContext(browser)).newPage();
    try {
      await signIn(other, plain.url, '/');
      const headers = { Origin: plain.url };
      const project = (await (await other.request.post(`${plain.url}/api/projects`, { data: { name: 'Plain' }, headers })).json()).id;
      await other.goto(`${plain.url}/project/${project}/templates/new/edit?app=bash`);
      expect(await other.locator('input[name=runner_tag]').count()).toBe(1);
      expect(await other.locator('.tpl-jwt').count()).toBe(0);
    } finally {
      await other.close();
      await plain.close();
    }
  });
});
