// What template-form*.test.ts share: a console server with a project, keys, repositories (one
// served by git daemon), an inventory and an environment, and a signed-in browser context. The
// dialog's tests are two files so that their halves run side by side.
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './console-server.ts';
import { launchBrowser, newContext, signIn } from './browser.ts';
import { adminApi } from './real-tasks.ts';
import { createGitRepo, commitOnBranch } from '../../support/git-repo.ts';
import { startGitDaemon } from '../../support/git-daemon.ts';

/** Every seed 001 §5 message of templates, vaults, survey variables and args, in English. */
export const MESSAGES = {
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

export let server: ConsoleServer;
export let browser: Browser;
export let context: BrowserContext;
let stopDaemon = () => {};
export let api: Awaited<ReturnType<typeof adminApi>>;
export const ids = { project: 0, noneKey: 0, vaultKey: 0, repo: 0, localRepo: 0, inventory: 0, env: 0 };

export async function send<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(server.url + path, {
    method, headers: { 'content-type': 'application/json', cookie: api.cookie }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}
export async function create(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await send<{ id: number }>('POST', `/api/project/${ids.project}${path}`, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.id;
}
export interface StoredTemplate {
  id: number; name: string; app: string; type: string; playbook: string; arguments: string | null; inventory_id: number | null;
  survey_vars: { name: string; title: string; type: string; required: boolean; values: { name: string; value: string }[] }[];
  vaults: { name: string | null; type: string; vault_key_id: number | null }[]; task_params: Record<string, unknown>; git_branch: string | null;
}
export const template = async (id: number) => (await send<StoredTemplate>('GET', `/api/project/${ids.project}/templates/${id}`)).json;
export const templateIdOf = (url: string) => Number(/\/templates\/(\d+)/.exec(new URL(url).pathname)![1]);

/** Texts of the messages under the fields and in the editors. */
export const shownMessages = (page: Page) => page.$$eval('dialog .field-error', (nodes) => nodes.map((n) => n.textContent?.trim() ?? ''));

export async function openEditor(page: Page, editor: 'survey' | 'vaults' | 'args') {
  const box = page.locator(`fieldset[data-field=${editor === 'survey' ? 'survey_vars' : editor === 'args' ? 'arguments' : 'vaults'}]`);
  await box.scrollIntoViewIfNeeded();
  await page.waitForSelector(`[data-editor=${editor}]`, { timeout: 30_000 });
}

/** Registers the file's setup (above) and teardown. */
export function setUpTemplateForm(): void {
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

  afterAll(async () => {
    stopDaemon();
    await browser?.close();
    await server?.close();
  });
}

/** A page of the signed-in context at `path`. */
export async function openPage(path: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  page.on('pageerror', (err) => console.error('page error:', err.message));
  await page.goto(server.url + path);
  return page;
}
