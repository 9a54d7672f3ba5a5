import { repoPathProblem } from '../shared/repo-path.ts';
import { canonicalSourceRef, isExternalSourceType, sourceRefusal } from '../keys/key-source.ts';
import { badRequest } from '../../http/errors.ts';
import { now, toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Backup } from './backup.schema.ts';
import { atPath, idOf, type RestoreContext } from './restore-context.ts';
import { checkInventorySource } from '../inventories/inventory.service.ts';
import { SOURCE_TYPES } from '../inventories/inventory.ts';

function requireJsonObjectText(path: string, text: string | null | undefined, fallback: string | null): string | null {
  if (text === null || text === undefined || text === '') return fallback;
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { parsed = undefined; }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest(`${path}: must be a JSON object`);
  return text;
}

/**
 * Restores variable groups, views, keys (empty shells: backups carry no secrets), repositories
 * and inventories, recording each id by name in `ctx.ids`. A variable-group password found in
 * the backup (Semaphore exports it) is sealed like any secret.
 */
export async function restoreResources(ctx: RestoreContext, backup: Backup): Promise<void> {
  const { tx, actor, ids } = ctx;
  const projectId = actor.projectId;
  // each item ends with its event: the place to let other requests run
  const log = async (objectType: string, objectId: number, description: string) => {
    await recordEvent(tx, { ...actor, objectType, objectId, description });
    await ctx.pause();
  };

  for (const [i, env] of (backup.environments ?? []).entries()) {
    const row = await tx.insertInto('environment').values({
      project_id: projectId, name: env.name, password: env.password ? ctx.deps.secrets.seal(env.password) : null,
      json: requireJsonObjectText(`environments[${i}].json`, env.json, '{}')!, env: requireJsonObjectText(`environments[${i}].env`, env.env, null),
    }).returningAll().executeTakeFirstOrThrow();
    ids.environments.set(row.name, row.id);
    await log('environment', row.id, `Environment ${row.name} created`);
  }
  for (const view of backup.views ?? []) {
    const row = await tx.insertInto('view').values({
      project_id: projectId, title: view.title, position: view.position ?? 0, hidden: toFlag(view.hidden), type: view.type ?? '',
      sort_column: view.sort_column ?? null, sort_reverse: toFlag(view.sort_reverse),
    }).returningAll().executeTakeFirstOrThrow();
    ids.views.set(row.title, row.id);
    await log('view', row.id, `View ${row.title} created`);
  }
  for (const [i, key] of (backup.keys ?? []).entries()) {
    const storageId = idOf(ids.storages, key.source_storage);
    const source = storageId !== null ? { source_storage_id: storageId, source_storage_key: key.source_storage_key ?? null } : serverSource(ctx, key, i);
    const row = await tx.insertInto('access_key').values({ project_id: projectId, name: key.name, type: key.type, secret: null, owner: '', environment_id: null, created: now(), ...source })
      .returningAll().executeTakeFirstOrThrow();
    ids.keys.set(row.name, row.id);
    await log('key', row.id, `Access Key ${row.name} created`);
  }
  for (const [i, repo] of (backup.repositories ?? []).entries()) {
    if (!repo.git_url.trim()) throw badRequest(`repositories[${i}]: git_url is required`);
    const row = await tx.insertInto('repository').values({
      project_id: projectId, name: repo.name, git_url: repo.git_url, git_branch: repo.git_branch ?? '', ssh_key_id: idOf(ids.keys, repo.ssh_key)!,
      pull_submodules: repo.pull_submodules === false ? 0 : 1,
    }).returningAll().executeTakeFirstOrThrow();
    ids.repositories.set(row.name, row.id);
    await log('repository', row.id, `Repository ${row.git_url} created`);
  }
  for (const [i, inv] of (backup.inventories ?? []).entries()) {
    const fileProblem = inv.type === 'file' ? repoPathProblem((inv.inventory ?? '').trim()) : null;
    if (fileProblem) throw badRequest(`inventories[${i}]: the inventory file ${fileProblem}`);
    const repositoryId = idOf(ids.repositories, inv.repository);
    const source = SOURCE_TYPES.includes(inv.type);
    const syncCron = await atPath(`inventories[${i}]`, () => checkInventorySource(inv.type, (inv.inventory ?? '').trim(), repositoryId !== null, inv.sync_cron));
    const row = await tx.insertInto('inventory').values({
      project_id: projectId, name: inv.name, type: inv.type, inventory: inv.inventory ?? '', ssh_key_id: idOf(ids.keys, inv.ssh_key),
      become_key_id: idOf(ids.keys, inv.become_key), repository_id: repositoryId, holder_id: null,
      source_key_id: source ? idOf(ids.keys, inv.source_key) : null, sync_cron: syncCron,
    }).returningAll().executeTakeFirstOrThrow();
    ids.inventories.set(row.name, row.id);
    await log('inventory', row.id, `Inventory ${row.name} created`);
  }
}

/** A key reading the server's environment or a file keeps its source only where this server allows it. */
function serverSource(ctx: RestoreContext, key: { source_storage_type?: string | null; source_storage_key?: string | null }, i: number): { source_storage_type?: string; source_storage_key?: string } {
  const type = key.source_storage_type;
  if (!isExternalSourceType(type)) return {};
  const ref = key.source_storage_key?.trim() ?? '';
  const refusal = sourceRefusal(ctx.deps.config.secret_sources, type, ref);
  if (refusal) throw badRequest(`keys[${i}].source_storage_key: ${refusal}`);
  return { source_storage_type: type, source_storage_key: canonicalSourceRef(type, ref) };
}
