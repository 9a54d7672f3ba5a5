import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';

// Inventory and Terraform workspaces (issue #14 screens 1 and 7): the inventory list and dialog
// with every seed 001 §5 message, the references dialog of a used inventory, and the workspaces
// of a Terraform template (new, make default, detach, attach, delete; aliases and states empty).
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let pid: number;
let sshKey: number;
let repoId: number;

async function api(method: 'post' | 'put', path: string, data: unknown): Promise<{ id: number }> {
  const res = await page.request[method](`${server.url}/api${path}`, { data, headers: { Origin: server.url } });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return res.status() === 204 ? { id: 0 } : res.json();
}

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const context = await newContext(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  await signIn(page, server.url, '/');
  pid = (await api('post', '/projects', { name: 'Inventories' })).id;
  sshKey = (await api('post', `/project/${pid}/keys`, { name: 'Deploy', type: 'ssh', ssh: { login: 'deploy', private_key: 'KEY' } })).id;
  await api('post', `/project/${pid}/keys`, { name: 'Become', type: 'login_password', login_password: { login: 'root', password: 'toor' } });
  repoId = (await api('post', `/project/${pid}/repositories`, { name: 'Infra', git_url: '/srv/infra', git_branch: '', ssh_key_id: sshKey })).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const inventoryRow = (name: string) => server.deps.db.selectFrom('inventory').selectAll().where('project_id', '=', pid).where('name', '=', name).executeTakeFirst();
const fieldError = (p: Page, name: string) => p.locator(`[data-field="${name}"] .field-error`).textContent();
async function submit(p: Page, urlPattern: RegExp): Promise<void> {
  await Promise.all([p.waitForURL(urlPattern), p.click('dialog form button[type=submit]')]);
}

describe('inventory', { timeout: 150_000 }, () => {
  it('creates a static inventory from the New inventory menu after the seed messages', async () => {
    await page.goto(`${server.url}/project/${pid}/inventory`);
    expect(await page.textContent('main')).toContain('No inventories yet.');
    await page.click('.new-inventory summary');
    await Promise.all([page.waitForURL(/edit=new/), page.click('.new-inventory >> text=Ansible')]);
    // sudo credentials offer only login_password keys
    expect(await page.locator('select[name=become_key_id] option').allTextContents()).toEqual(['—', 'Become']);
    await page.evaluate(() => document.querySelectorAll<HTMLInputElement>('input[name=type]').forEach((r) => { r.checked = false; }));
    await submit(page, /edit=new/);
    expect(await fieldError(page, 'name')).toBe('Name is required');
    expect(await fieldError(page, 'ssh_key_id')).toBe('User credentials are required');
    expect(await page.textContent('#type-error')).toBe('Type is required');
    await page.check('input[name=type][value=file]');
    expect(await page.isVisible('textarea[name=content]')).toBe(false);
    await submit(page, /edit=new/);
    expect(await fieldError(page, 'path')).toBe('Path to Inventory file is required');

    await page.check('input[name=type][value=static]');
    expect(await page.isVisible('input[name=path]')).toBe(false);
    await page.fill('input[name=name]', 'Web servers');
    await page.fill('textarea[name=content]', '\n  [web]\nlocalhost ansible_connection=local\n\n');
    await page.selectOption('select[name=ssh_key_id]', { label: 'Deploy' });
    await page.selectOption('select[name=become_key_id]', { label: 'Become' });
    await submit(page, /flash=inventory_saved/);
    expect(await page.textContent('.snackbar')).toContain('Inventory Web servers saved');
    const row = await inventoryRow('Web servers');
    expect(row?.type).toBe('static');
    expect(row?.inventory).toBe('[web]\nlocalhost ansible_connection=local');
    const listed = page.locator('tr', { hasText: 'Web servers' });
    expect(await listed.locator('td').nth(1).textContent()).toBe('Static');
    expect(await listed.locator('td').nth(2).textContent()).toBe('—');
  });

  it('creates a file inventory with a repository and shows its path; edits keep the values', async () => {
    await page.goto(`${server.url}/project/${pid}/inventory?edit=new`);
    await page.check('input[name=type][value=file]');
    await page.fill('input[name=name]', 'From repo');
    await page.fill('input[name=path]', '  hosts/production.ini ');
    await page.selectOption('select[name=ssh_key_id]', { label: 'Deploy' });
    await page.selectOption('select[name=repository_id]', { label: 'Infra' });
    await submit(page, /flash=inventory_saved/);
    const row = await inventoryRow('From repo');
    expect(row?.inventory).toBe('hosts/production.ini');
    expect(row?.repository_id).toBe(repoId);
    expect(await page.locator('tr', { hasText: 'From repo' }).locator('td').nth(2).textContent()).toBe('hosts/production.ini');

    await Promise.all([page.waitForURL(/edit=\d+/), page.locator('tr', { hasText: 'Web servers' }).locator('text=Edit').click()]);
    expect(await page.inputValue('textarea[name=content]')).toContain('[web]');
    expect(await page.inputValue('select[name=become_key_id]')).not.toBe('');
    await page.fill('textarea[name=content]', '[web]\n127.0.0.1');
    await submit(page, /flash=inventory_saved/);
    expect((await inventoryRow('Web servers'))?.inventory).toBe('[web]\n127.0.0.1');
    await screenshot(page, 'resources-inventory-1280');
  });

  it('keeps a become key of another kind set through the API, with a warning beside the field', async () => {
    const made = await api('post', `/project/${pid}/inventory`, { name: 'SSH become', type: 'static', inventory: 'localhost', ssh_key_id: sshKey, become_key_id: sshKey });
    await page.goto(`${server.url}/project/${pid}/inventory?edit=${made.id}`);
    expect(await page.inputValue('select[name=become_key_id]')).toBe(String(sshKey));
    expect(await page.textContent('[data-field=become_key_id] .field-warning')).toContain('Not a login/password key');
    await submit(page, /flash=inventory_saved/);
    expect((await inventoryRow('SSH become'))!.become_key_id).toBe(sshKey);
    expect((await page.request.delete(`${server.url}/api/project/${pid}/inventory/${made.id}`, { headers: { Origin: server.url } })).status()).toBe(204);
  });

  it('lists the templates using an inventory instead of deleting it, and deletes an unused one', async () => {
    const inventoryId = (await inventoryRow('Web servers'))!.id;
    await api('post', `/project/${pid}/templates`, { name: 'Site', app: 'ansible', playbook: 'site.yml', inventory_id: inventoryId, repository_id: repoId });
    await page.goto(`${server.url}/project/${pid}/inventory`);
    await Promise.all([page.waitForURL(/delete=\d+/), page.locator('tr', { hasText: 'Web servers' }).locator('text=Delete').click()]);
    expect(await page.textContent('dialog.references-dialog')).toContain('Site');
    await page.goto(`${server.url}/project/${pid}/inventory?delete=${(await inventoryRow('From repo'))!.id}`);
    await Promise.all([page.waitForURL(/flash=inventory_deleted/), page.click('dialog .delete-form button[type=submit]')]);
    expect(await inventoryRow('From repo')).toBeUndefined();
  });

  it('manages the workspaces of a Terraform template', async () => {
    const tid = (await api('post', `/project/${pid}/templates`, { name: 'Network', app: 'terraform', repository_id: repoId })).id;
    const self = `${server.url}/project/${pid}/templates/${tid}/workspaces`;
    // a new Terraform template comes with its default workspace
    await page.goto(self);
    expect(await page.locator('tr', { hasText: 'Network - default' }).locator('.default-badge').textContent()).toBe('Default');
    await Promise.all([page.waitForURL(/edit=new/), page.click('text=New workspace')]);
    await submit(page, /edit=new/);
    expect(await fieldError(page, 'name')).toBe('Name is required');
    expect(await fieldError(page, 'ssh_key_id')).toBe('Key is required');
    for (const name of ['production', 'staging']) {
      await page.goto(`${self}?edit=new`);
      await page.fill('input[name=name]', name);
      await page.selectOption('select[name=ssh_key_id]', { label: 'Deploy' });
      await submit(page, /flash=workspace_saved/);
    }
    const prod = page.locator('tr', { hasText: 'production' });
    await Promise.all([page.waitForURL(/flash=workspace_default/), prod.locator('button', { hasText: 'Make default' }).click()]);
    expect(await prod.locator('.default-badge').textContent()).toBe('Default');
    // the default can be neither detached nor deleted
    expect(await prod.locator('button').count()).toBe(0);
    expect(await prod.locator('text=Delete').count()).toBe(0);

    await Promise.all([page.waitForURL(/flash=workspace_detached/), page.locator('tr', { hasText: 'staging' }).locator('button', { hasText: 'Detach' }).click()]);
    expect(await page.locator('tr', { hasText: 'staging' }).count()).toBe(0);
    await Promise.all([page.waitForURL(/attach=1/), page.click('text=Attach workspace')]);
    await submit(page, /attach=1/);
    expect(await fieldError(page, 'inventory_id')).toBe('Select a workspace');
    await page.selectOption('select[name=inventory_id]', { label: 'staging' });
    await submit(page, /flash=workspace_attached/);
    expect(await page.locator('tr', { hasText: 'staging' }).count()).toBe(1);

    // one workspace: no aliases, no state; the alias button follows terraform_backend
    await Promise.all([page.waitForURL(/ws=\d+/), page.click('a:text-is("production")')]);
    expect(await page.textContent('.workspace-detail')).toContain('There is no aliases.');
    expect(await page.textContent('.workspace-detail')).toContain('No state available.');
    const backend = (await (await page.request.get(`${server.url}/api/info`)).json()).premium_features.terraform_backend;
    const addAlias = page.locator('.alias-form button');
    expect(await addAlias.isDisabled()).toBe(!backend);
    expect(await page.locator('.res-info').count()).toBe(backend ? 0 : 1);
    if (backend) {
      await Promise.all([page.waitForURL(/flash=alias_saved/), addAlias.click()]);
      expect(await page.locator('.alias-list li').count()).toBe(1);
      expect(await page.textContent('.alias-list code')).toMatch(/^http/);
      await page.click('.alias-list button:has-text("Copy URL")');
      await page.waitForFunction(() => document.querySelector('.alias-list button')?.textContent === 'Alias URL copied', undefined, { timeout: 10_000 });
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.textContent('.alias-list code'));
    }
    await screenshot(page, 'resources-workspaces-1280');
    // a state that is not there: 'No state available.' (the API answers 404)
    const wsId = new URL(page.url()).searchParams.get('ws');
    await page.goto(`${self}?ws=${wsId}&state=999`);
    expect(await page.textContent('dialog.state-dialog')).toContain('No state available.');

    // the inventory list leads workspace rows to their template
    await page.goto(`${server.url}/project/${pid}/inventory`);
    const wsRow = page.locator('tr', { hasText: 'production' });
    expect(await wsRow.locator('td').nth(1).textContent()).toBe('Terraform workspace');
    expect(await wsRow.locator('a', { hasText: 'Attach to template' }).getAttribute('href')).toBe(`/project/${pid}/templates/${tid}/workspaces`);
    expect(await wsRow.locator('text=Edit').count()).toBe(0);

    await page.goto(self);
    await Promise.all([page.waitForURL(/delete=\d+/), page.locator('tr', { hasText: 'staging' }).locator('text=Delete').click()]);
    await Promise.all([page.waitForURL(/flash=workspace_deleted/), page.click('dialog .delete-form button[type=submit]')]);
    expect(await inventoryRow('staging')).toBeUndefined();
  });

  it("says 'No workspaces.' for a template without any", async () => {
    const tid = (await api('post', `/project/${pid}/templates`, { name: 'Bare', app: 'tofu', repository_id: repoId })).id;
    await server.deps.db.updateTable('template').set({ inventory_id: null }).where('id', '=', tid).execute();
    await server.deps.db.deleteFrom('inventory').where('holder_id', '=', tid).execute();
    await page.goto(`${server.url}/project/${pid}/templates/${tid}/workspaces`);
    expect(await page.textContent('main')).toContain('No workspaces.');
  });

  it('fits a phone and works without JavaScript', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.setViewportSize({ width: 375, height: 740 });
    await signIn(plain, server.url, `/project/${pid}/inventory`);
    expect(await plain.textContent('main table')).toContain('Web servers');
    const overflow = await plain.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(plain, 'resources-inventory-375');
    await plain.click('.new-inventory summary');
    await Promise.all([plain.waitForURL(/edit=new/), plain.click('.new-inventory >> text=Ansible')]);
    await plain.fill('input[name=name]', 'Plain');
    await plain.fill('textarea[name=content]', 'localhost');
    await plain.selectOption('select[name=ssh_key_id]', { label: 'Deploy' });
    await screenshot(plain, 'resources-inventory-dialog-375');
    await submit(plain, /flash=inventory_saved/);
    expect((await inventoryRow('Plain'))?.inventory).toBe('localhost');
    await context.close();
  });
});
