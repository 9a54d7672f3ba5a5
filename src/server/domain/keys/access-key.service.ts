import type { Db, Tx } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { ListOrder } from '../../http/list-order.ts';
import { now } from '../../lib/time.ts';
import { sealSecret } from '../../crypto/sealed-secret.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Actor } from '../project-resource.ts';
import { assertNotInUse } from '../refs/resource-refs.ts';
import { clearRepositoryClones } from '../repositories/repository-cache.ts';
import { storageSource } from '../secret-storages/secret-storage.service.ts';
import { secretOfKeyInput, type AccessKeyInput, type AccessKeyRow } from './access-key.ts';
import { canonicalSourceRef, isExternalSourceType, sourceRefusal, type SecretSourcesPolicy } from './key-source.ts';

/** Where a key's or secret's value comes from, as stored: all null when the value is sealed here. */
export interface KeySourceColumns {
  source_storage_id: number | null;
  source_storage_key: string | null;
  source_storage_type: string | null;
}

/**
 * Checks an input's source: a storage of the project (`path#field`), or a server variable or
 * file the admin's `secret_sources` allow. `at` prefixes field names in the 400 message.
 * @example const source = await keySourceOf(tx, config.secret_sources, projectId, input, '');
 */
export async function keySourceOf(db: Db | Tx, policy: SecretSourcesPolicy, projectId: number, input: Pick<AccessKeyInput, 'source_storage_id' | 'source_storage_key' | 'source_storage_type'>, at: string): Promise<KeySourceColumns> {
  const type = input.source_storage_type;
  if (isExternalSourceType(type)) {
    if (input.source_storage_id != null) throw badRequest(`${at}source_storage_id: leave it empty when the value comes from ${type}`);
    const ref = input.source_storage_key?.trim() ?? '';
    if (!ref) throw badRequest(`${at}source_storage_key: required; name the ${type === 'env' ? 'environment variable' : 'file'}`);
    const refusal = sourceRefusal(policy, type, ref);
    if (refusal) throw badRequest(`${at}source_storage_key: ${refusal}`);
    return { source_storage_id: null, source_storage_key: canonicalSourceRef(type, ref), source_storage_type: type };
  }
  if (type === 'vault' && input.source_storage_id == null) throw badRequest(`${at}source_storage_id: required when source_storage_type is vault`);
  return { ...(await storageSource(db, projectId, input.source_storage_id, input.source_storage_key, at)), source_storage_type: null };
}

/** Key-store keys of a project; environment secrets and user keys are left out. */
export function listProjectKeys(db: Db, projectId: number, order: ListOrder<'name' | 'type'>): Promise<AccessKeyRow[]> {
  return db.selectFrom('access_key').selectAll().where('project_id', '=', projectId).where('owner', '=', '')
    .orderBy(order.column, order.direction).orderBy('id').execute();
}

/**
 * One key-store key of the project, or 404 (environment secrets are not reachable here).
 * @example const key = await findProjectKey(db, projectId, id);
 */
export async function findProjectKey(db: Db | Tx, projectId: number, id: number): Promise<AccessKeyRow> {
  const row = await db.selectFrom('access_key').selectAll().where('id', '=', id)
    .where('project_id', '=', projectId).where('owner', '=', '').executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Validates and stores a new key with its secret sealed. */
export async function createKey(tx: Tx, deps: Pick<Deps, 'secrets' | 'config'>, actor: Actor, input: AccessKeyInput): Promise<AccessKeyRow> {
  if (!input.type) throw badRequest('type: required; use none, ssh or login_password');
  const source = await keySourceOf(tx, deps.config.secret_sources, actor.projectId, input, '');
  const plain = secretOfKeyInput(input.type, input);
  const row = await tx.insertInto('access_key').values({
    project_id: actor.projectId, name: input.name, type: input.type, secret: sealSecret(deps.secrets, plain),
    owner: '', environment_id: null, created: now(), ...source,
  }).returningAll().executeTakeFirstOrThrow();
  await recordKeyEvent(tx, actor, row, 'created');
  return row;
}

/**
 * Renames a key; type and secret change only with `override_secret: true` (then validated as
 * on create). A new secret invalidates clones made with the old one.
 */
export async function updateKey(tx: Tx, deps: Pick<Deps, 'secrets' | 'config'>, actor: Actor, id: number, input: AccessKeyInput): Promise<void> {
  const existing = await findProjectKey(tx, actor.projectId, id);
  const changes: { name: string; type?: string; secret?: string | null } & Partial<KeySourceColumns> = { name: input.name };
  if (input.override_secret) {
    const type = input.type ?? (existing.type as 'none');
    changes.type = type;
    Object.assign(changes, await keySourceOf(tx, deps.config.secret_sources, actor.projectId, input, ''));
    changes.secret = sealSecret(deps.secrets, secretOfKeyInput(type, input));
  }
  await tx.updateTable('access_key').set(changes).where('id', '=', id).execute();
  await recordKeyEvent(tx, actor, { ...existing, name: input.name }, 'updated');
  if (input.override_secret) {
    const repositories = await tx.selectFrom('repository').select('id').where('ssh_key_id', '=', id).execute();
    for (const repository of repositories) clearRepositoryClones(deps.config.tmp_path, repository.id);
  }
}

/** Deletes a key nothing refers to. */
export async function deleteKey(tx: Tx, actor: Actor, id: number): Promise<void> {
  const existing = await findProjectKey(tx, actor.projectId, id);
  await assertNotInUse(tx, actor.projectId, 'key', id);
  await tx.deleteFrom('access_key').where('id', '=', id).execute();
  await recordKeyEvent(tx, actor, existing, 'deleted');
}

function recordKeyEvent(tx: Tx, actor: Actor, key: Pick<AccessKeyRow, 'id' | 'name'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'key', objectId: key.id, auditName: key.name,
    description: `Access Key ${key.name} ${verb}`,
  });
}
