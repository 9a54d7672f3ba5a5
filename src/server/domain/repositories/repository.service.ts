import type { Db, Tx } from '../../db/database.ts';
import type { Config } from '../../config/config.ts';
import { badRequest } from '../../http/errors.ts';
import type { ListOrder } from '../../http/list-order.ts';
import { recordEvent } from '../events/event.repository.ts';
import { loadProjectRow, type Actor } from '../project-resource.ts';
import { assertNotInUse } from '../refs/resource-refs.ts';
import { assertProjectKey } from '../keys/project-key-ref.ts';
import { classifyRepositoryUrl } from './repository-url.ts';
import { clearRepositoryClones } from './repository-cache.ts';
import type { RepositoryInput, RepositoryRow } from './repository.ts';

/** Repositories of a project. */
export function listRepositories(db: Db, projectId: number, order: ListOrder<'name' | 'git_url'>): Promise<RepositoryRow[]> {
  return db.selectFrom('repository').selectAll().where('project_id', '=', projectId)
    .orderBy(order.column, order.direction).orderBy('id').execute();
}

async function validRepositoryValues(tx: Tx, projectId: number, input: RepositoryInput) {
  const type = classifyRepositoryUrl(input.git_url);
  if (!type) throw badRequest('git_url: incorrect URL; only git://, file://, ssh://, http:// and https:// schemes are fetched, and no ::remote helpers');
  const branch = input.git_branch ?? '';
  if (type !== 'local' && !branch) throw badRequest('git_branch: required unless the URL is a local path');
  await assertProjectKey(tx, projectId, input.ssh_key_id, 'ssh_key_id');
  // not sent: a new repository fetches submodules (the column's default), an existing one keeps its choice
  const submodules = input.pull_submodules === undefined ? {} : { pull_submodules: input.pull_submodules ? 1 : 0 };
  return { name: input.name, git_url: input.git_url, git_branch: branch, ssh_key_id: input.ssh_key_id, ...submodules };
}

/** Validates and stores a new repository. */
export async function createRepository(tx: Tx, actor: Actor, input: RepositoryInput): Promise<RepositoryRow> {
  const values = await validRepositoryValues(tx, actor.projectId, input);
  const row = await tx.insertInto('repository').values({ project_id: actor.projectId, ...values }).returningAll().executeTakeFirstOrThrow();
  await recordRepositoryEvent(tx, actor, row, 'created');
  return row;
}

/** Updates a repository; a new URL, key or submodule choice drops the cached clones. */
export async function updateRepository(tx: Tx, config: Config, actor: Actor, id: number, input: RepositoryInput): Promise<void> {
  const existing = await loadProjectRow(tx, 'repository', actor.projectId, id);
  const values = await validRepositoryValues(tx, actor.projectId, input);
  await tx.updateTable('repository').set(values).where('id', '=', id).execute();
  await recordRepositoryEvent(tx, actor, { id, git_url: values.git_url }, 'updated');
  const submodulesChanged = values.pull_submodules !== undefined && values.pull_submodules !== existing.pull_submodules;
  if (existing.git_url !== values.git_url || existing.ssh_key_id !== values.ssh_key_id || submodulesChanged) clearRepositoryClones(config.tmp_path, id);
}

/** Deletes a repository nothing refers to, and its cached clones. */
export async function deleteRepository(tx: Tx, config: Config, actor: Actor, id: number): Promise<void> {
  const existing = await loadProjectRow(tx, 'repository', actor.projectId, id);
  await assertNotInUse(tx, actor.projectId, 'repository', id);
  await tx.deleteFrom('repository').where('id', '=', id).execute();
  await recordRepositoryEvent(tx, actor, existing, 'deleted');
  clearRepositoryClones(config.tmp_path, id);
}

function recordRepositoryEvent(tx: Tx, actor: Actor, repo: Pick<RepositoryRow, 'id' | 'git_url'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'repository', objectId: repo.id,
    description: `Repository ${repo.git_url} ${verb}`,
  });
}
