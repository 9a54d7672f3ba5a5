import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi } from './support/real-tasks.ts';
import { createGitRepo, commitOnBranch } from '../support/git-repo.ts';
import { startGitDaemon } from '../support/git-daemon.ts';
import { LANGUAGES } from '../../src/console/languages.ts';

/** Every seed 001 §5 message of templates, vaults, survey variables and args, in English. */
const MESSAGES = {
  name_required: 'Name is required',
  playbook_filename_required: 'Playbook filename is required',
  script_filename_required: 'Script filename is required',
  inventory_required: 'Inventory is required',
  repository_required: 'Repository is required',
  environment_required: 'Variable group is required',
  start_version_required: 'Start version is required',
  build_template_required: 'Build template is required',
  title_required: 'Title is required',
  arg_required: 'Argument is required',
  enum_no_values: 'Enumeration must have values.',
  enum_unique_names: 'Enumeration values must have unique names.',
  enum_empty_name: 'Value name cannot be empty.',
  vault_name_unique: 'Vault ID must be unique',
  vault_name_default: 'Only one default (unnamed) vault may exist',
  vault_type_required: 'Type is required',
  vault_required: 'Vault password is required',
  vault_script_required: 'Vault script is required',
  vault_script_client_required: 'The script name must end with -client (an extension may follow)',
} as const;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let stopDaemon = () => {};
let api: Awaited<ReturnType<typeof adminApi>>;
const ids = { project: 0, noneKey: 0, vaultKey: 0, repo: 0, localRepo: 0, inventory: 0, env: 0 };

async function send<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(server.url + path, {
    method, headers: { 'content-type': 'application/json', cookie: api.cookie }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}
async function create(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await send<{ id: number }>('POST', `/api/project/${ids.project}${path}`, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.id;
}
interface StoredTemplate {
  id: number; name: string; app: string; type: string; playbook: string; arguments: string | null; inventory_id: number | null;
  survey_vars: { name: string; title: string; type: string; required: boolean; values: { name: string; value: string }[] }[];
  vaults: { name: string | null; type: string; vault_key_id: number | null }[]; task_params: Record<string, unknown>; git_branch: string | null;
}
const template = async (id: number) => (await send<StoredTemplate>('GET', `/api/project/${ids.project}/templates/${id}`)).json;
const templateIdOf = (url: string) => Number(/\/templates\/(\d+)/.exec(new URL(url).pathname)![1]);

/** Texts of the messages under the fields and in the editors. */
const shownMessages = (page: Page) => page.$$eval('dialog .field-error', (nodes) => nodes.map((n) => n.textContent?.trim() ?? ''));

async function openEditor(page: Page, editor: 'survey' | 'vaults' | 'args') {
  const box = page.locator(`fieldset[data-field=${editor === 'survey' ? 'survey_vars' : editor === 'args' ? 'arguments' : 'vaults'}]`);
  await box.scrollIntoViewIfNeeded();
  await page.waitForSelector(`[data-editor=${editor}]`, { timeout: 30_000 });
}

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  api = await adminApi(server);
  const served = join(server.tmp, 'served');
  const repo = createGitRepo(join(served, 'site.git'), { 'site.yml': '- hosts: all\n', 'run.sh': 'echo hi\n' });
  commitOnBranch(repo.path, 'feature-x', { 'x.txt': 'x' }, 'Feature');
  const daemon = await startGitDaemon(served);
  stopDaemon = daemon.stop;
  const project = await send<{ id: number }>('POST', '/api/projects', { name: 'Templates' });
  ids.project = project.json.id;
  ids.noneKey = await create('/keys', { name: 'None', type: 'none' });
  ids.vaultKey = await create('/keys', { name: 'Vault pass', type: 'login_password', login_password: { login: '', password: 'vault-secret' } });
  ids.repo = await create('/repositories', { name: 'Site', git_url: `${daemon.url}/site.git`, git_branch: 'main', ssh_key_id: ids.noneKey });
  ids.localRepo = await create('/repositories', { name: 'Local', git_url: `file://${repo.path}`, git_branch: 'main', ssh_key_id: ids.noneKey });
  ids.inventory = await create('/inventory', { name: 'Hosts', type: 'static', inventory: 'localhost', ssh_key_id: ids.noneKey });
  ids.env = await create('/environment', { name: 'Default', json: '{}', env: '{}' });
  const first = await context.newPage();
  await signIn(first, server.url, `/project/${ids.project}/history`);
  await first.close();
}, 120_000);

/** A page of the signed-in context at `path`. */
async function openPage(path: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  page.on('pageerror', (err) => console.error('page error:', err.message));
  await page.goto(server.url + path);
  return page;
}

afterAll(async () => {
  stopDaemon();
  await browser?.close();
  await server?.close();
});

describe('the template dialog in Chromium', () => {
  it('shows every template rule of seed 001 §5 under its field after a save', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=ansible`);
    expect(await page.locator('dialog h2').textContent()).toBe('New Ansible template');
    // 1200 px for ansible
    expect(await page.$eval('dialog > article', (a) => getComputedStyle(a).maxWidth)).toBe('1200px');
    await Promise.all([page.waitForLoadState('load'), page.click('dialog footer button[type=submit]')]);
    await page.waitForSelector('dialog .field-error');
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([
      MESSAGES.name_required, MESSAGES.playbook_filename_required, MESSAGES.inventory_required, MESSAGES.repository_required, MESSAGES.environment_required,
    ]));
    // build and deploy tabs; the commit check without its repository
    await page.check('input[name=type][value=build]');
    await page.check('input[name=cron_enabled]');
    await Promise.all([page.waitForLoadState('load'), page.click('dialog footer button[type=submit]')]);
    await page.waitForSelector('dialog .field-error');
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([MESSAGES.start_version_required]));
    expect(await page.locator('[data-field=cron_repository_id] .field-error').textContent()).toBe(MESSAGES.repository_required);
    expect(await page.isVisible('input[name=start_version]')).toBe(true);
    await page.check('input[name=type][value=deploy]');
    expect(await page.isVisible('input[name=start_version]')).toBe(false);
    await Promise.all([page.waitForLoadState('load'), page.click('dialog footer button[type=submit]')]);
    await page.waitForSelector('dialog .field-error');
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([MESSAGES.build_template_required]));
    await page.close();
  });

  it('checks survey variables, vaults and arguments in their editors as they are edited', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=ansible`);
    // survey variable editor
    await openEditor(page, 'survey');
    await page.click('[data-editor=survey] >> text=Add variable');
    await page.click('[data-sv=save]');
    expect(await page.locator('#sv-name-error').textContent()).toBe(MESSAGES.name_required);
    expect(await page.locator('#sv-title-error').textContent()).toBe(MESSAGES.title_required);
    await page.fill('[data-sv=name]', 'color');
    await page.fill('[data-sv=title]', 'Colour');
    await page.selectOption('[data-sv=type]', 'enum');
    await page.click('[data-sv=save]');
    expect(await page.locator('#sv-values-error').textContent()).toBe(MESSAGES.enum_no_values);
    await page.click('[data-editor=survey] >> text=Add value');
    expect(await page.locator('#sv-values-error').textContent()).toBe(MESSAGES.enum_empty_name);
    await page.fill('[data-sv-value-name="0"]', 'red');
    await page.click('[data-editor=survey] >> text=Add value');
    await page.fill('[data-sv-value-name="1"]', 'red');
    expect(await page.locator('#sv-values-error').textContent()).toBe(MESSAGES.enum_unique_names);

    // vault editor
    await openEditor(page, 'vaults');
    const addVault = async () => page.click('[data-editor=vaults] >> text=Add vault');
    await addVault();
    await page.click('[data-vault-field=save]');
    expect(await page.locator('#vault-key-error').textContent()).toBe(MESSAGES.vault_required);
    await page.selectOption('[data-vault-field=key]', String(ids.vaultKey));
    await page.click('[data-vault-field=save]');
    await addVault();
    await page.selectOption('[data-vault-field=key]', String(ids.vaultKey));
    await page.click('[data-vault-field=save]');
    expect(await page.locator('#vault-name-error').textContent()).toBe(MESSAGES.vault_name_default);
    await page.fill('[data-vault-field=name]', 'prod');
    await page.click('[data-vault-field=save]');
    await addVault();
    await page.fill('[data-vault-field=name]', '  PROD ');
    await page.selectOption('[data-vault-field=type]', '');
    await page.click('[data-vault-field=save]');
    expect(await page.locator('#vault-name-error').textContent()).toBe(MESSAGES.vault_name_unique);
    expect(await page.locator('#vault-type-error').textContent()).toBe(MESSAGES.vault_type_required);
    await page.fill('[data-vault-field=name]', 'dev');
    await page.selectOption('[data-vault-field=type]', 'script');
    expect(await page.locator('#vault-script-error').textContent()).toBe(MESSAGES.vault_script_required);
    await page.fill('[data-vault-field=script]', 'vault/secret.py');
    expect(await page.locator('#vault-script-error').textContent()).toBe(MESSAGES.vault_script_client_required);
    await page.fill('[data-vault-field=script]', 'vault/secret-client.py');
    await page.click('[data-vault-field=save]');
    expect(await page.$$eval('[data-vault]', (rows) => rows.map((r) => r.getAttribute('data-vault')))).toEqual(['default', 'prod', 'dev']);

    // args picker
    await openEditor(page, 'args');
    await page.fill('[data-arg-input]', '   ');
    await page.click('[data-arg-add]');
    expect(await page.locator('#arg-error').textContent()).toBe(MESSAGES.arg_required);
    await page.fill('[data-arg-input]', '  --check ');
    await page.keyboard.press('Enter');
    expect(await page.$$eval('[data-arg]', (rows) => rows.map((r) => r.getAttribute('data-arg')))).toEqual(['--check']);
    expect(await page.locator('#arg-error').count()).toBe(0);
    await page.close();
  });

  it('creates a bash template with a required enum survey variable and arguments; 800 px wide, branches of the chosen repository offered', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=bash`);
    expect(await page.$eval('dialog > article', (a) => getComputedStyle(a).maxWidth)).toBe('800px');
    expect(await page.locator('select[name=inventory_id]').count()).toBe(0);
    expect(await page.locator('fieldset[data-field=vaults]').count()).toBe(0);
    await page.fill('input[name=name]', 'Say hello');
    await page.fill('input[name=playbook]', 'run.sh');
    await page.selectOption('select[name=repository_id]', String(ids.repo));
    await page.waitForFunction(() => document.querySelectorAll('#tpl-branches option').length === 2, null, { timeout: 30_000 });
    expect(await page.$$eval('#tpl-branches option', (o) => o.map((x) => (x as HTMLOptionElement).value).sort())).toEqual(['feature-x', 'main']);
    await page.fill('input[name=git_branch]', 'feature-x');
    await page.selectOption('select[name=environment_id]', String(ids.env));
    await openEditor(page, 'survey');
    await page.click('[data-editor=survey] >> text=Add variable');
    await page.fill('[data-sv=name]', 'color');
    await page.fill('[data-sv=title]', 'Colour');
    await page.selectOption('[data-sv=type]', 'enum');
    await page.click('[data-editor=survey] >> text=Add value');
    await page.fill('[data-sv-value-name="0"]', 'Red');
    await page.fill('[data-sv-value-value="0"]', 'red');
    await page.click('[data-editor=survey] >> text=Add value');
    await page.fill('[data-sv-value-name="1"]', 'Blue');
    await page.fill('[data-sv-value-value="1"]', 'blue');
    await page.check('[data-sv=required]');
    await page.click('[data-sv=save]');
    await page.waitForSelector('[data-survey-var=color]');
    await openEditor(page, 'args');
    await page.fill('[data-arg-input]', '--name');
    await page.click('[data-arg-add]');
    await page.fill('[data-arg-input]', 'world');
    await page.click('[data-arg-add]');
    await page.check('input[name=allow_override_args_in_task]');
    await screenshot(page, 'template-dialog-bash-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'template-dialog-bash-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/), page.click('dialog footer button[type=submit]')]);
    const stored = await template(templateIdOf(page.url()));
    expect(stored).toMatchObject({ name: 'Say hello', app: 'bash', type: '', playbook: 'run.sh', git_branch: 'feature-x', arguments: '["--name","world"]', inventory_id: null });
    expect(stored.survey_vars).toEqual([expect.objectContaining({
      name: 'color', title: 'Colour', type: 'enum', required: true, values: [{ name: 'Red', value: 'red' }, { name: 'Blue', value: 'blue' }],
    })]);
    await page.close();
  });

  let ansibleId = 0;
  it('creates an ansible template with a vault, task parameters and a commit check schedule', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=ansible`);
    await page.fill('input[name=name]', 'Site');
    await page.fill('input[name=playbook]', 'site.yml');
    await page.selectOption('select[name=inventory_id]', String(ids.inventory));
    await page.selectOption('select[name=repository_id]', String(ids.localRepo));
    await page.selectOption('select[name=environment_id]', String(ids.env));
    await openEditor(page, 'vaults');
    await page.click('[data-editor=vaults] >> text=Add vault');
    await page.fill('[data-vault-field=name]', ' Prod ');
    await page.selectOption('[data-vault-field=key]', String(ids.vaultKey));
    await page.click('[data-vault-field=save]');
    await page.fill('input[name=limit]', 'web');
    await page.check('input[name=allow_override_limit]');
    await page.check('input[name=allow_debug]');
    await page.check('input[name=skip_galaxy_install]');
    await page.check('input[name=cron_enabled]');
    await page.selectOption('select[name=cron_repository_id]', String(ids.localRepo));
    await page.selectOption('select[name=cron_format]', '*/5 * * * *');
    await screenshot(page, 'template-dialog-ansible-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'template-dialog-ansible-375');
    await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/), page.click('dialog footer button[type=submit]')]);
    ansibleId = templateIdOf(page.url());
    const stored = await template(ansibleId);
    expect(stored).toMatchObject({ name: 'Site', app: 'ansible', inventory_id: ids.inventory });
    expect(stored.vaults).toEqual([expect.objectContaining({ name: 'prod', type: 'password', vault_key_id: ids.vaultKey })]);
    expect(stored.task_params).toMatchObject({ limit: 'web', allow_override_limit: true, allow_debug: true, allow_override_tags: false, skip_galaxy_install: true });
    const schedules = (await send<{ cron_format: string; repository_id: number; active: boolean }[]>('GET', `/api/project/${ids.project}/templates/${ansibleId}/schedules`)).json;
    expect(schedules).toEqual([expect.objectContaining({ cron_format: '*/5 * * * *', repository_id: ids.localRepo, active: true })]);
    await page.close();
  });

  it('edits the ansible template: fields come back filled, the vault list is kept, the commit check is removed when turned off', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/${ansibleId}/edit`);
    expect(await page.locator('dialog h2').textContent()).toBe('Edit template Site');
    expect(await page.inputValue('input[name=playbook]')).toBe('site.yml');
    expect(await page.inputValue('input[name=limit]')).toBe('web');
    expect(await page.isChecked('input[name=cron_enabled]')).toBe(true);
    expect(await page.isChecked('input[name=skip_galaxy_install]')).toBe(true);
    expect(await page.inputValue('select[name=cron_format]')).toBe('*/5 * * * *');
    await openEditor(page, 'vaults');
    expect(await page.$$eval('[data-vault]', (rows) => rows.map((r) => r.getAttribute('data-vault')))).toEqual(['prod']);
    await page.fill('input[name=name]', 'Site (prod)');
    await page.uncheck('input[name=cron_enabled]');
    await page.check('input[name=type][value=build]');
    await page.fill('input[name=start_version]', '1.0.0');
    await Promise.all([page.waitForURL(new RegExp(`/templates/${ansibleId}/tasks\\?flash=template_saved`)), page.click('dialog footer button[type=submit]')]);
    const stored = await template(ansibleId);
    expect(stored).toMatchObject({ name: 'Site (prod)', type: 'build' });
    expect(stored.vaults).toHaveLength(1);
    expect((await send<unknown[]>('GET', `/api/project/${ids.project}/templates/${ansibleId}/schedules`)).json).toEqual([]);
    await page.close();
  });

  it('refuses a commit-check cron the server does not accept (POST /schedules/validate before saving)', async () => {
    const form = new URLSearchParams({
      _form: 'template', type: 'task', name: 'Bad cron', playbook: 'run.sh', repository_id: String(ids.repo), environment_id: String(ids.env),
      cron_enabled: 'on', cron_repository_id: String(ids.repo), cron_format: 'every now and then',
    });
    const res = await fetch(`${server.url}/project/${ids.project}/templates/new/edit?app=bash`, {
      method: 'POST', body: form, redirect: 'manual', headers: { cookie: api.cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/id="cron_format-error"[^>]*>Cron: /);
    const all = (await send<{ name: string }[]>('GET', `/api/project/${ids.project}/templates`)).json;
    expect(all.map((t) => t.name)).not.toContain('Bad cron');
  });
});

describe('the template dialog per app, as the server renders it', () => {
  const get = (path: string) => fetch(server.url + path, { headers: { cookie: api.cookie }, redirect: 'manual' });

  it('gives terraform a workspace, auto-approve options and 1200 px; python its script and 800 px; unknown apps and templates 404', async () => {
    const terraform = await (await get(`/project/${ids.project}/templates/new/edit?app=terraform`)).text();
    expect(terraform).toContain('New Terraform template');
    expect(terraform).toMatch(/class="[^"]*tpl-w1200/);
    expect(terraform).toContain('Default workspace (optional)');
    expect(terraform).toContain('Subdirectory path (optional)');
    expect(terraform).toContain('name="allow_auto_approve"');
    expect(terraform).not.toContain('name="vaults"');
    const python = await (await get(`/project/${ids.project}/templates/new/edit?app=python`)).text();
    expect(python).toMatch(/class="[^"]*tpl-w800/);
    expect(python).toContain('Script filename');
    expect(python).not.toContain('name="inventory_id"');
    expect((await get(`/project/${ids.project}/templates/new/edit?app=nope`)).status).toBe(404);
    expect((await get(`/project/${ids.project}/templates/999999/edit`)).status).toBe(404);
  });
});

describe('the template dialog without JavaScript', () => {
  it('creates a simple bash template through the plain form, with the seed messages first', { timeout: 300_000 }, async () => {
    const plain = await newContext(browser, { javaScriptEnabled: false });
    const page = await plain.newPage();
    await signIn(page, server.url, `/project/${ids.project}/templates/new/edit?app=bash`);
    // the editors are plain fields posting the same names
    expect(await page.locator('textarea[name=survey_vars]').count()).toBe(1);
    expect(await page.locator('textarea[name=arguments]').count()).toBe(1);
    await page.fill('textarea[name=survey_vars]', '[{"name":"size","title":"Size","type":"enum","values":[]}]');
    await Promise.all([page.waitForLoadState('load'), page.click('dialog footer button[type=submit]')]);
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([
      MESSAGES.name_required, MESSAGES.script_filename_required, MESSAGES.repository_required, MESSAGES.environment_required,
      `Size: ${MESSAGES.enum_no_values}`,
    ]));
    await page.fill('input[name=name]', 'Plain');
    await page.fill('input[name=playbook]', 'run.sh');
    await page.selectOption('select[name=repository_id]', String(ids.localRepo));
    await page.selectOption('select[name=environment_id]', String(ids.env));
    await page.fill('textarea[name=survey_vars]', '[{"name":"who","title":"Who","type":"string","required":true}]');
    await page.fill('textarea[name=arguments]', '--greet\n\n');
    await page.click('input[name=type][value=build]');
    await Promise.all([page.waitForLoadState('load'), page.click('dialog footer button[type=submit]')]);
    expect(await shownMessages(page)).toEqual([MESSAGES.start_version_required]);
    await page.fill('input[name=start_version]', '0.1.0');
    await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/), page.click('dialog footer button[type=submit]')]);
    const stored = await template(templateIdOf(page.url()));
    expect(stored).toMatchObject({ name: 'Plain', type: 'build', arguments: '["--greet"]' });
    expect(stored.survey_vars).toEqual([expect.objectContaining({ name: 'who', title: 'Who', required: true })]);
    await plain.close();
  });
});

describe('the template dialog messages', () => {
  it('are in every locale file, translated', () => {
    const english = JSON.parse(readFileSync(new URL('../../locales/en/translation.json', import.meta.url), 'utf8')) as { templateForm: Record<string, string> };
    for (const [key, text] of Object.entries(MESSAGES)) expect(english.templateForm[key], key).toBe(text);
    for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
      const messages = (JSON.parse(readFileSync(new URL(`../../locales/${code}/translation.json`, import.meta.url), 'utf8')) as { templateForm: Record<string, string> }).templateForm;
      for (const key of Object.keys(MESSAGES)) {
        expect(messages[key], `${code} ${key}`).toBeTruthy();
        expect(messages[key], `${code} ${key}`).not.toBe(english.templateForm[key]);
      }
    }
  });
});
