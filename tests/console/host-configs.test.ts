import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';

// Host configs (Semaphore 2.20), reached from the key store: created, edited and deleted through
// the browser alone, with the form's messages, only SSH keys offered, at 1280 and 375 px; and the
// repository dialog's "fetch submodules" box.
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let pid: number;

const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nhost-config-console-key\n-----END OPENSSH PRIVATE KEY-----';

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, '/');
  const headers = { Origin: server.url };
  const res = await page.request.post(`${server.url}/api/projects`, { data: { name: 'Fleet' }, headers });
  pid = (await res.json()).id;
  await page.request.post(`${server.url}/api/project/${pid}/keys`, { data: { name: 'Fleet key', type: 'ssh', ssh: { private_key: PRIVATE_KEY } }, headers });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rows = () => server.deps.db.selectFrom('host_config').selectAll().where('project_id', '=', pid).orderBy('id').execute();
const fieldError = (p: Page, name: string) => p.locator(`[data-field="${name}"] .field-error`).textContent();
async function submit(p: Page, urlPattern: RegExp): Promise<void> {
  await Promise.all([p.waitForURL(urlPattern), p.click('dialog form button[type=submit]')]);
}

describe('host configs screen', { timeout: 120_000 }, () => {
  for (const width of [1280, 375]) {
    it(`maps a host to an SSH key, edits and deletes it from the key store (${width} px)`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/project/${pid}/keys`);
      await Promise.all([page.waitForURL(/\/host-configs$/), page.click('main a:has-text("Host configs")')]);
      expect(await page.textContent('main')).toContain('No host configs yet.');
      await Promise.all([page.waitForURL(/edit=new/), page.click('text=New host config')]);
      // only SSH keys are offered (the project's None key is not)
      expect(await page.locator('select[name=ssh_key_id] option').allTextContents()).toEqual(['—', 'Fleet key']);
      await submit(page, /edit=new/);
      expect(await fieldError(page, 'host')).toBe('Host is required');
      expect(await fieldError(page, 'ssh_key_id')).toBe('Choose an SSH key');
      await page.check('input[name=type][value=url]');
      await page.fill('input[name=host]', 'git@github.com:my-org/');
      await page.selectOption('select[name=ssh_key_id]', { label: 'Fleet key' });
      await screenshot(page, `host-config-dialog-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await submit(page, /flash=host_config_saved/);
      expect(await page.textContent('.snackbar')).toContain('Host config git@github.com:my-org/ saved');
      const [row] = await rows();
      expect(row).toMatchObject({ type: 'url', host: 'git@github.com:my-org/' });
      expect(await page.textContent('main table')).toContain('Git URL prefix');
      expect(await page.content()).not.toContain('host-config-console-key');

      await Promise.all([page.waitForURL(/edit=\d+/), page.click(`tr[data-host-config="${row!.id}"] >> text=Edit`)]);
      await page.check('input[name=type][value=host]');
      await page.fill('input[name=host]', 'bad host');
      await submit(page, /edit=\d+/);
      // the API's refusal of `host`, said beside that field as a sentence
      expect(await page.textContent('dialog [data-field=host] .field-error')).toContain('Must be one SSH host name');
      await page.fill('input[name=host]', '*.internal');
      await submit(page, /flash=host_config_saved/);
      expect((await rows())[0]).toMatchObject({ type: 'host', host: '*.internal' });
      await screenshot(page, `host-configs-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      await Promise.all([page.waitForURL(/delete=\d+/), page.click(`tr[data-host-config="${row!.id}"] >> text=Delete`)]);
      await Promise.all([page.waitForURL(/flash=host_config_deleted/), page.click('dialog button[type=submit]')]);
      expect(await rows()).toEqual([]);
    });
  }

  it('keeps the repository dialog\'s "fetch submodules" choice', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/project/${pid}/repositories?edit=new`);
    expect(await page.isChecked('input[name=pull_submodules]')).toBe(true);
    await page.fill('input[name=name]', 'Flat');
    await page.fill('input[name=git_url]', 'https://example.com/flat.git');
    await page.fill('input[name=git_branch]', 'main');
    await page.selectOption('select[name=ssh_key_id]', { label: 'Fleet key' });
    await page.uncheck('input[name=pull_submodules]');
    await submit(page, /flash=repository_saved/);
    const repo = await server.deps.db.selectFrom('repository').selectAll().where('project_id', '=', pid).executeTakeFirstOrThrow();
    expect(repo.pull_submodules).toBe(0);
    await page.goto(`${server.url}/project/${pid}/repositories?edit=${repo.id}`);
    expect(await page.isChecked('input[name=pull_submodules]')).toBe(false);
  });
});
