import type { Db } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { TaskRow } from '../../db/schema.ts';
import { parseTaskEnvironmentIds } from '../../domain/environments/environment-list.ts';
import { isExternalSourceType, type SecretSourcesPolicy } from '../../domain/keys/key-source.ts';
import { mergeIntoKey, readServerSource, StorageReadError } from '../run/storage-secrets.ts';
import type { WorkflowTaskContext } from '../../domain/workflows/workflow-task.ts';

/**
 * Everything a remote runner needs to run one task with the same engine code as the server:
 * the rows `loadTaskDetails` reads, with each access key's secret opened (the whole payload is
 * then sealed to the runner's public key, so secrets never travel in clear).
 */
export interface JobPayload {
  task: TaskRow;
  /** survey secrets of the run (held in memory by the server that queued it) */
  secret: Record<string, string>;
  rows: Record<string, Record<string, unknown>[]>;
  /** access keys with `secret` in plain text */
  keys: Record<string, unknown>[];
  /** secret storages those keys read from, their credential in plain text (the runner reads the values itself) */
  storages?: Record<string, unknown>[];
  /** the task's identity token, minted by the server (a runner cannot sign) */
  jwt?: string | null;
  /** the workflow run that started the task (its ids, the run page, the input lines), looked up by the server */
  workflow?: WorkflowTaskContext | null;
}

/**
 * Collects the rows of `task`'s run: template and its vaults, project, the user's name,
 * inventory, repositories, variable group, host configs, the template's extra SSH keys and every key they name
 * (its registry key too: a runner pulls the template's image itself).
 * @example const payload = await buildJobPayload(db, box, task, takeTaskSecrets(task.id));
 */
export async function buildJobPayload(db: Db, box: SecretBox, task: TaskRow, secret: Record<string, string>, jwt: string | null = null, workflow: WorkflowTaskContext | null = null, sources: SecretSourcesPolicy = { env: [], dirs: [] }): Promise<JobPayload> {
  const template = await db.selectFrom('template').selectAll().where('id', '=', task.template_id).executeTakeFirstOrThrow();
  const project = await db.selectFrom('project').selectAll().where('id', '=', task.project_id).executeTakeFirstOrThrow();
  const user = task.user_id ? await db.selectFrom('user').select(['id', 'username', 'name', 'email', 'created']).where('id', '=', task.user_id).executeTakeFirst() : undefined;
  const inventoryId = task.inventory_id ?? template.inventory_id;
  const inventory = inventoryId ? await db.selectFrom('inventory').selectAll().where('id', '=', inventoryId).executeTakeFirst() : undefined;
  const repoIds = [template.repository_id, inventory?.repository_id].filter((id): id is number => typeof id === 'number');
  const repositories = repoIds.length ? await db.selectFrom('repository').selectAll().where('id', 'in', repoIds).execute() : [];
  const vaults = await db.selectFrom('template_vault').selectAll().where('template_id', '=', template.id).execute();
  const environmentIds = parseTaskEnvironmentIds(task.environment_ids) ?? (template.environment_id ? [template.environment_id] : []);
  const environments = environmentIds.length ? await db.selectFrom('environment').selectAll().where('id', 'in', environmentIds).execute() : [];
  const hostConfigs = await db.selectFrom('host_config').selectAll().where('project_id', '=', task.project_id).execute();
  const templateKeys = await db.selectFrom('template_ssh_key').selectAll().where('template_id', '=', template.id).execute();
  const keyIds = [
    inventory?.ssh_key_id, inventory?.become_key_id, ...repositories.map((r) => r.ssh_key_id), ...vaults.map((v) => v.vault_key_id),
    ...hostConfigs.map((h) => h.ssh_key_id), ...templateKeys.map((k) => k.ssh_key_id), template.executor_registry_key_id,
  ].filter((id): id is number => typeof id === 'number');
  const keyRows = await db.selectFrom('access_key').selectAll().where((w) => w.or([
    ...(keyIds.length ? [w('id', 'in', keyIds)] : []),
    ...(environments.length ? [w.and([w('environment_id', 'in', environments.map((e) => e.id)), w('owner', '=', 'environment')])] : []),
    w('id', '=', -1),
  ])).execute();
  const storageIds = [...new Set(keyRows.map((k) => k.source_storage_id).filter((id): id is number => typeof id === 'number'))];
  const storages = storageIds.length ? await db.selectFrom('secret_storage').selectAll().where('id', 'in', storageIds).execute() : [];
  const buildTask = task.build_task_id ? await db.selectFrom('task').selectAll().where('id', '=', task.build_task_id).executeTakeFirst() : undefined;
  return {
    task, secret,
    rows: {
      project: [project], template: [template], template_vault: vaults, user: user ? [{ ...user, password: '', admin: 0, external: 0, alert: 0 }] : [],
      inventory: inventory ? [inventory] : [], repository: repositories, environment: environments,
      task: buildTask ? [buildTask] : [],
      host_config: hostConfigs,
      template_ssh_key: templateKeys,
    },
    keys: keyRows.map((k) => fromServerSources({ ...k, secret: k.secret ? box.open(k.secret) : null }, sources)),
    storages: storages.map((row) => ({ ...row, secret: row.secret ? box.open(row.secret) : null })),
    jwt,
    workflow,
  };
}

/**
 * A key read from the server's own environment or files is read here, by the server, and goes
 * to the runner as a value (inside the sealed payload). When it cannot be read, the reference
 * stays and the runner, which may read no such source, fails the task with one line.
 */
function fromServerSources<K extends { type: string; secret: string | null; source_storage_type: string | null; source_storage_key: string | null }>(key: K, sources: SecretSourcesPolicy): K {
  if (!isExternalSourceType(key.source_storage_type)) return key;
  try {
    const value = readServerSource(sources, key.source_storage_type, key.source_storage_key ?? '');
    return { ...key, secret: mergeIntoKey(key.type, key.secret ?? '', value), source_storage_type: null, source_storage_key: null };
  } catch (err) {
    if (!(err instanceof StorageReadError)) throw err;
    return key;
  }
}
