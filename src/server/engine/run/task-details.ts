import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { InventoryTable, ProjectRow, RepositoryTable, TaskRow, TemplateRow } from '../../db/schema.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { parseJsonObject as parseObject } from '../../lib/json-object.ts';
import { findIncomingVersion } from '../../domain/tasks/build-version.ts';
import { readEnvironmentSecrets } from '../../domain/keys/key-secret.ts';
import { KeyOpener } from './storage-secrets.ts';
import type { SecretSourcesPolicy } from '../../domain/keys/key-source.ts';
import { parseTaskEnvironmentIds } from '../../domain/environments/environment-list.ts';

/** A JSON object column; anything else reads as `{}` (the engine's name for lib's parseJsonObject). */
export { parseObject };

export type InventoryRow = Selectable<InventoryTable>;
export type RepositoryRow = Selectable<RepositoryTable>;

/** A decrypted access key. Only the engine holds these, only for the run. */
export interface KeySecret {
  id: number;
  type: string;
  login: string;
  password: string;
  privateKey: string;
  passphrase: string;
  /** type `string` (variable-group secrets) */
  text: string;
}

/** A project's host config with its key opened, as a run uses it. */
export interface HostKey {
  type: 'host' | 'url';
  host: string;
  key: KeySecret;
}

export interface VaultSecret {
  name: string;
  type: 'password' | 'script';
  password: string;
  script: string;
}

export interface VariableGroup {
  json: Record<string, unknown>;
  env: Record<string, string>;
  varSecrets: Record<string, string>;
  envSecrets: Record<string, string>;
}

/** Everything a run needs, loaded and decrypted once when the task starts. */
export interface TaskDetails {
  task: TaskRow;
  template: TemplateRow;
  project: ProjectRow;
  username: string;
  inventory: InventoryRow | null;
  inventoryKey: KeySecret | null;
  becomeKey: KeySecret | null;
  inventoryRepository: RepositoryRow | null;
  inventoryRepositoryKey: KeySecret | null;
  repository: RepositoryRow | null;
  repositoryKey: KeySecret | null;
  /** the project's host configs (Semaphore 2.20), keys opened */
  hostKeys: HostKey[];
  /** the template's extra SSH keys, in order, opened */
  templateKeys: KeySecret[];
  /** login and password for the registry of the template's container image */
  registryKey: KeySecret | null;
  variables: VariableGroup;
  vaults: VaultSecret[];
  incomingVersion: string | null;
  /** the task's identity token (`SEMAPHORE_JWT`), when its template asks for one */
  jwt: string | null;
  /** set for a task a workflow run started: what its environment tells it, and where it writes its outputs */
  workflow?: { workflowId: number; runId: number; url: string; outputsFile: string; callbackDir: string };
}

/**
 * Loads a task's template, project, inventory, repository, variable group and keys, opening
 * every secret with the secret box. Throws with a readable message when something is missing.
 * @example const details = await loadTaskDetails(deps.db, deps.secrets, task);
 */
export async function loadTaskDetails(db: Db, box: SecretBox, task: TaskRow, jwt: string | null = null, sources?: SecretSourcesPolicy): Promise<TaskDetails> {
  const opener = new KeyOpener(db, box, jwt, sources);
  try {
    return await loadWith(db, opener, task, jwt);
  } finally {
    await opener.close();
  }
}

async function loadWith(db: Db, opener: KeyOpener, task: TaskRow, jwt: string | null): Promise<TaskDetails> {
  const template = await db.selectFrom('template').selectAll().where('id', '=', task.template_id).executeTakeFirst();
  if (!template) throw new Error(`template ${task.template_id} no longer exists`);
  const project = await db.selectFrom('project').selectAll().where('id', '=', task.project_id).executeTakeFirstOrThrow();
  const user = task.user_id ? await db.selectFrom('user').select('username').where('id', '=', task.user_id).executeTakeFirst() : undefined;
  const inventoryId = task.inventory_id ?? template.inventory_id;
  const inventory = inventoryId ? (await db.selectFrom('inventory').selectAll().where('id', '=', inventoryId).executeTakeFirst()) ?? null : null;
  const repository = template.repository_id
    ? (await db.selectFrom('repository').selectAll().where('id', '=', template.repository_id).executeTakeFirst()) ?? null
    : null;
  const inventoryRepository = inventory?.repository_id
    ? (await db.selectFrom('repository').selectAll().where('id', '=', inventory.repository_id).executeTakeFirst()) ?? null
    : null;
  const key = (id: number | null | undefined) => loadKey(db, opener, id);
  const vaultRows = await db.selectFrom('template_vault').selectAll().where('template_id', '=', template.id).orderBy('id').execute();
  const vaults: VaultSecret[] = [];
  for (const v of vaultRows) {
    const secret = await key(v.vault_key_id);
    vaults.push({
      name: v.name || 'default', type: v.type === 'script' ? 'script' : 'password',
      password: secret?.password || secret?.text || '', script: v.script ?? '',
    });
  }
  return {
    task, template, project,
    username: user?.username ?? '',
    inventory,
    inventoryKey: await key(inventory?.ssh_key_id),
    becomeKey: await key(inventory?.become_key_id),
    inventoryRepository,
    inventoryRepositoryKey: await key(inventoryRepository?.ssh_key_id),
    repository,
    repositoryKey: await key(repository?.ssh_key_id),
    hostKeys: await loadHostKeys(db, opener, project.id),
    templateKeys: await loadTemplateKeys(db, opener, template.id),
    registryKey: await key(template.executor_registry_key_id),
    variables: await loadVariableGroups(db, opener, parseTaskEnvironmentIds(task.environment_ids) ?? (template.environment_id ? [template.environment_id] : [])),
    vaults,
    incomingVersion: template.type === 'deploy' ? await findIncomingVersion(db, task.build_task_id) : null,
    jwt,
  };
}

async function loadHostKeys(db: Db, opener: KeyOpener, projectId: number): Promise<HostKey[]> {
  const rows = await db.selectFrom('host_config').innerJoin('access_key', 'access_key.id', 'host_config.ssh_key_id')
    .select(['host_config.type', 'host_config.host', 'access_key.id', 'access_key.type as key_type', 'access_key.secret', 'access_key.source_storage_id', 'access_key.source_storage_key', 'access_key.source_storage_type'])
    .where('host_config.project_id', '=', projectId).orderBy('host_config.id').execute();
  const keys: HostKey[] = [];
  for (const r of rows) keys.push({ type: r.type === 'url' ? 'url' : 'host', host: r.host, key: openKey(r.id, r.key_type, await opener.plain({ ...r, type: r.key_type })) });
  return keys;
}

async function loadTemplateKeys(db: Db, opener: KeyOpener, templateId: number): Promise<KeySecret[]> {
  const rows = await db.selectFrom('template_ssh_key').innerJoin('access_key', 'access_key.id', 'template_ssh_key.ssh_key_id')
    .selectAll('access_key')
    .where('template_ssh_key.template_id', '=', templateId).orderBy('template_ssh_key.position').execute();
  const keys: KeySecret[] = [];
  for (const r of rows) keys.push(openKey(r.id, r.type, await opener.plain(r)));
  return keys;
}

/**
 * One access key opened outside a run (no task token): for the server's own look-ups, such as
 * reading an inventory's repository.
 * @example const key = await openKeyById(deps.db, deps.secrets, repository.ssh_key_id);
 */
export async function openKeyById(db: Db, box: SecretBox, id: number | null | undefined, sources?: SecretSourcesPolicy): Promise<KeySecret | null> {
  const opener = new KeyOpener(db, box, null, sources);
  try {
    return await loadKey(db, opener, id);
  } finally {
    await opener.close();
  }
}

async function loadKey(db: Db, opener: KeyOpener, id: number | null | undefined): Promise<KeySecret | null> {
  if (!id) return null;
  const row = await db.selectFrom('access_key').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return openKey(row.id, row.type, await opener.plain(row));
}

/** Opens a key's plain text: JSON `{login, password}` / `{login, passphrase, private_key}`, or raw text. */
export function openKey(id: number, type: string, plain: string): KeySecret {
  const key: KeySecret = { id, type, login: '', password: '', privateKey: '', passphrase: '', text: '' };
  if (type === 'string' || !plain) return { ...key, text: plain };
  let parsed: Record<string, unknown> = {};
  try {
    const value = JSON.parse(plain);
    if (value && typeof value === 'object') parsed = value as Record<string, unknown>;
  } catch {
    // Legacy rows: a raw private key.
    return { ...key, privateKey: plain };
  }
  return {
    ...key,
    login: String(parsed.login ?? ''),
    password: String(parsed.password ?? ''),
    privateKey: String(parsed.private_key ?? ''),
    passphrase: String(parsed.passphrase ?? ''),
  };
}

/**
 * The task's variable groups merged in order: a later group's key replaces an earlier group's
 * same key, whether either holds it as a plain value or as a secret (extra vars and environment
 * variables apart). A group deleted since the task was queued is skipped.
 */
async function loadVariableGroups(db: Db, opener: KeyOpener, environmentIds: number[]): Promise<VariableGroup> {
  const merged: VariableGroup = { json: {}, env: {}, varSecrets: {}, envSecrets: {} };
  for (const id of environmentIds) {
    const group = await loadVariableGroup(db, opener, id);
    overlay(merged.json, merged.varSecrets, group.json, group.varSecrets);
    overlay(merged.env, merged.envSecrets, group.env, group.envSecrets);
  }
  return merged;
}

/** Lays `plain` and `secret` over the merged maps; each key ends in exactly one of them. */
function overlay<T>(intoPlain: Record<string, T>, intoSecret: Record<string, string>, plain: Record<string, T>, secret: Record<string, string>) {
  for (const [key, value] of Object.entries(plain)) {
    delete intoSecret[key];
    intoPlain[key] = value;
  }
  for (const [key, value] of Object.entries(secret)) {
    delete intoPlain[key];
    intoSecret[key] = value;
  }
}

async function loadVariableGroup(db: Db, opener: KeyOpener, environmentId: number): Promise<VariableGroup> {
  const group: VariableGroup = { json: {}, env: {}, varSecrets: {}, envSecrets: {} };
  const row = await db.selectFrom('environment').selectAll().where('id', '=', environmentId).executeTakeFirst();
  if (!row) return group;
  group.json = parseObject(row.json);
  for (const [k, v] of Object.entries(parseObject(row.env))) group.env[k] = typeof v === 'string' ? v : JSON.stringify(v);
  const secrets = await readEnvironmentSecrets(db, (row) => opener.plain(row), environmentId);
  return { ...group, varSecrets: secrets.vars, envSecrets: secrets.env };
}
