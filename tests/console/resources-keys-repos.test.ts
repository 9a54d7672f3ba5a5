import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { createGitRepo } from '../support/git-repo.ts';
import { seriousViolations } from './support/axe.ts';

// Key store and repositories (issue #14 screens 3, 4, 7): created through the browser alone in a
// new empty project, with every seed 001 §5 message of both forms, the references dialog, editing
// a key without "override secret" (the stored secret stays), the 'Empty' badge, and plain forms
// without JavaScript.
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let pid: number;

const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, '/');
  const res = await page.request.post(`${server.url}/api/projects`, { data: { name: 'Resources' }, headers: { Origin: server.url } });
  expect(res.status()).toBe(201);
  pid = (await res.json()).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const keyRow = (name: string) => server.deps.db.selectFrom('access_key').selectAll().where('project_id', '=', pid).where('name', '=', name).executeTakeFirst();
const fieldError = (p: Page, name: string) => p.locator(`[data-field="${name}"] .field-error`).textContent();

async function submit(p: Page, urlPattern: RegExp): Promise<void> {
  await Promise.all([p.waitForURL(urlPattern), p.click('dialog form button[type=submit]')]);
}

describe('key store and repositories', { timeout: 120_000 }, () => {
  it('creates an ssh key and a login_password key, after showing each seed message', async () => {
    await page.goto(`${server.url}/project/${pid}/keys`);
    // a new project brings its 'None' key, as in Semaphore
    expect(await page.locator('main tbody tr').count()).toBe(1);
    await Promise.all([page.waitForURL(/edit=new/), page.click('text=New key')]);
    await submit(page, /edit=new/);
    expect(await fieldError(page, 'name')).toBe('Name is required');
    expect(await fieldError(page, 'private_key')).toBe('Private key is required');
    await page.fill('input[name=name]', '  Deploy SSH  ');
    await page.fill('input[name=login]', 'deploy');
    await page.fill('textarea[name=private_key]', PRIVATE_KEY);
    // only the chosen type's parts show
    expect(await page.isVisible('input[name=password]')).toBe(false);
    await submit(page, /flash=key_saved/);
    expect(await page.textContent('.snackbar')).toContain('Key Deploy SSH saved');

    await page.click('text=New key');
    await page.waitForURL(/edit=new/);
    await page.check('input[name=type][value=login_password]');
    expect(await page.isVisible('textarea[name=private_key]')).toBe(false);
    await page.fill('input[name=name]', 'Vault password');
    await page.fill('input[name=login]', 'admin');
    await submit(page, /edit=new/);
    expect(await fieldError(page, 'password')).toBe('Password is required');
    expect(await page.inputValue('input[name=name]')).toBe('Vault password');
    await page.fill('input[name=password]', 'pa55word');
    await submit(page, /flash=key_saved/);

    const ssh = await keyRow('Deploy SSH');
    expect(ssh?.type).toBe('ssh');
    expect(ssh?.secret).toBeTruthy();
    expect(JSON.stringify(ssh)).not.toContain('OPENSSH');
    expect((await keyRow('Vault password'))?.type).toBe('login_password');
    const table = await page.textContent('main table');
    expect(table).toContain('SSH key');
    expect(table).toContain('Login with password');
    // secrets are never sent back to the page
    expect(await page.content()).not.toContain('pa55word');
    await screenshot(page, 'resources-keys-1280');
  });

  it('edits a key without ticking override: the name changes, the secret stays', async () => {
    const before = await keyRow('Vault password');
    await page.goto(`${server.url}/project/${pid}/keys`);
    await Promise.all([page.waitForURL(/edit=\d+/), page.locator('tr', { hasText: 'Vault password' }).locator('text=Edit').click()]);
    expect(await page.isChecked('input[name=override_secret]')).toBe(false);
    expect(await page.isVisible('input[name=password]')).toBe(false);
    expect(await page.inputValue('input[name=name]')).toBe('Vault password');
    await page.fill('input[name=name]', 'Vault pass');
    await submit(page, /flash=key_saved/);
    const after = await keyRow('Vault pass');
    expect(after?.id).toBe(before!.id);
    expect(after?.secret).toBe(before!.secret);

    // ticking override asks for the secret again
    await page.goto(`${server.url}/project/${pid}/keys?edit=${before!.id}`);
    await page.check('input[name=override_secret]');
    expect(await page.isVisible('input[name=password]')).toBe(true);
    await submit(page, /edit=/);
    expect(await fieldError(page, 'password')).toBe('Password is required');
    expect((await keyRow('Vault pass'))?.secret).toBe(before!.secret);
  });

  it("shows 'Empty' for a key without a secret unless its type is none", async () => {
    await page.goto(`${server.url}/project/${pid}/keys?edit=new`);
    await page.check('input[name=type][value=none]');
    await page.fill('input[name=name]', 'Public');
    await submit(page, /flash=key_saved/);
    await server.deps.db.updateTable('access_key').set({ secret: null }).where('project_id', '=', pid).where('name', '=', 'Vault pass').execute();
    await page.reload();
    expect(await page.locator('tr', { hasText: 'Vault pass' }).locator('.res-badge').textContent()).toBe('Empty');
    expect(await page.locator('tr', { hasText: 'Public' }).locator('.res-badge').count()).toBe(0);
    expect(await page.locator('tr', { hasText: 'Deploy SSH' }).locator('.res-badge').count()).toBe(0);
  });

  it('creates a repository on a local git repository, after every URL and field message', async () => {
    const repo = createGitRepo(join(server.tmp, 'playbooks'), { 'site.yml': '- hosts: all\n  tasks: []\n' });
    await page.goto(`${server.url}/project/${pid}/repositories`);
    await Promise.all([page.waitForURL(/edit=new/), page.click('text=New repository')]);
    await submit(page, /edit=new/);
    expect(await fieldError(page, 'name')).toBe('Name is required');
    expect(await fieldError(page, 'git_url')).toBe('URL or path is required');
    expect(await fieldError(page, 'ssh_key_id')).toBe('Key is required');
    await page.fill('input[name=name]', 'Playbooks');
    await page.fill('input[name=git_url]', 'ftp://example.test/repo.git');
    await submit(page, /edit=new/);
    expect(await fieldError(page, 'git_url')).toBe('Incorrect URL');
    // a form git reads as a folder is taken, as Semaphore takes it, with a warning beside the field
    await page.fill('input[name=git_url]', 'git@example.test');
    await submit(page, /edit=new/);
    expect(await page.locator('[data-field=git_url] .field-error').count()).toBe(0);
    expect(await page.textContent('[data-field=git_url] .field-warning')).toContain('Not a usual git URL');
    await page.fill('input[name=git_url]', '  git@example.test:org/repo.git ');
    await submit(page, /edit=new/);
    expect(await page.locator('[data-field=git_url] .field-error').count()).toBe(0);
    expect(await page.locator('[data-field=git_url] .field-warning').count()).toBe(0);
    expect(await fieldError(page, 'git_branch')).toBe('Branch is required');
    // a local path needs no branch; values are trimmed
    await page.fill('input[name=git_url]', `  ${repo.path}  `);
    await page.selectOption('select[name=ssh_key_id]', { label: 'Deploy SSH' });
    await submit(page, /flash=repository_saved/);
    expect(await page.textContent('.snackbar')).toContain('Repository Playbooks saved');
    const row = await server.deps.db.selectFrom('repository').selectAll().where('project_id', '=', pid).executeTakeFirstOrThrow();
    expect(row.git_url).toBe(repo.path);
    const listed = page.locator('tr', { hasText: 'Playbooks' });
    expect(await listed.textContent()).toContain(repo.path);
    expect(await listed.textContent()).toContain('Deploy SSH');

    // a remote one shows its branch
    await page.goto(`${server.url}/project/${pid}/repositories?edit=new`);
    await page.fill('input[name=name]', 'Remote');
    await page.fill('input[name=git_url]', 'https://example.test/org/remote.git');
    await page.fill('input[name=git_branch]', ' develop ');
    await page.selectOption('select[name=ssh_key_id]', { label: 'Public' });
    await submit(page, /flash=repository_saved/);
    expect(await page.locator('tr', { hasText: 'Remote' }).locator('.sub').textContent()).toBe('develop');
    expect(await listed.locator('.sub').count()).toBe(0);
    await screenshot(page, 'resources-repositories-1280');
  });

  it('asks for references before deleting a used key, and deletes an unused one', async () => {
    await page.goto(`${server.url}/project/${pid}/keys`);
    await Promise.all([page.waitForURL(/delete=\d+/), page.locator('tr', { hasText: 'Deploy SSH' }).locator('text=Delete').click()]);
    const refs = page.locator('dialog.references-dialog');
    expect(await refs.textContent()).toContain('Playbooks');
    expect(await refs.locator('a[href$="/repositories"]').count()).toBe(1);
    expect(await page.locator('dialog .delete-form').count()).toBe(0);
    await screenshot(page, 'resources-key-references-1280');

    // the server refuses a delete the dialog did not offer: its message shows as an error snackbar
    const id = (await keyRow('Deploy SSH'))!.id;
    await page.goto(`${server.url}/project/${pid}/keys?delete=${(await keyRow('Vault pass'))!.id}`);
    await page.evaluate((keyId) => { (document.querySelector('dialog .delete-form input[name=id]') as HTMLInputElement).value = String(keyId); }, id);
    await Promise.all([page.waitForURL(/flash=delete_failed/), page.click('dialog .delete-form button[type=submit]')]);
    expect(await page.getAttribute('.snackbar', 'class')).toContain('snackbar-error');
    expect(await keyRow('Deploy SSH')).toBeTruthy();

    await page.goto(`${server.url}/project/${pid}/keys`);
    await Promise.all([page.waitForURL(/delete=\d+/), page.locator('tr', { hasText: 'Vault pass' }).locator('text=Delete').click()]);
    expect(await page.textContent('dialog.delete-dialog')).toContain('Vault pass');
    await Promise.all([page.waitForURL(/flash=key_deleted/), page.click('dialog .delete-form button[type=submit]')]);
    expect(await page.textContent('.snackbar')).toContain('Key Vault pass deleted');
    expect(await keyRow('Vault pass')).toBeUndefined();
  });

  it('has no serious or critical axe violation on the resource screens and their dialogs', async () => {
    const key = ((await keyRow('Deploy SSH')) ?? (await keyRow('None')))!.id;
    // axe is slow: the screens with the most kinds of controls
    for (const path of [`keys?edit=${key}`, `keys?delete=${key}`, 'inventory?edit=new', 'team']) {
      await page.goto(`${server.url}/project/${pid}/${path}`);
      expect(await seriousViolations(page), path).toEqual([]);
    }
  }, 400_000);

  it('fits a phone: no sideways page scroll on the lists and the dialog', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of ['keys', 'repositories', 'keys?edit=new', 'repositories?edit=new']) {
      await page.goto(`${server.url}/project/${pid}/${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await page.goto(`${server.url}/project/${pid}/keys`);
    await screenshot(page, 'resources-keys-375');
    await page.goto(`${server.url}/project/${pid}/repositories?edit=new`);
    await screenshot(page, 'resources-repository-dialog-375');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('works without JavaScript: lists render, keys and repositories are created by plain forms', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const plain = await context.newPage();
    await signIn(plain, server.url, `/project/${pid}/keys`);
    expect(await plain.textContent('main table')).toContain('Deploy SSH');
    await Promise.all([plain.waitForURL(/edit=new/), plain.click('text=New key')]);
    await plain.check('input[name=type][value=login_password]');
    await plain.fill('input[name=name]', 'No-JS key');
    await plain.fill('input[name=password]', 'secret-1');
    await submit(plain, /flash=key_saved/);
    expect((await keyRow('No-JS key'))?.type).toBe('login_password');

    await plain.goto(`${server.url}/project/${pid}/repositories?edit=new`);
    await plain.fill('input[name=name]', 'No-JS repo');
    await plain.fill('input[name=git_url]', 'ssh://git@example.test/org/nojs.git');
    await plain.fill('input[name=git_branch]', 'main');
    await plain.selectOption('select[name=ssh_key_id]', { label: 'No-JS key' });
    await submit(plain, /flash=repository_saved/);
    expect(await plain.textContent('main table')).toContain('No-JS repo');
    await context.close();
  });
});
