import type { Db, Tx } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { sealSecret } from '../../crypto/sealed-secret.ts';
import { badRequest } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { loadProjectRow, type Actor } from '../project-resource.ts';
import { ENVIRONMENT_KEY_OWNER, secretNameParts } from '../environments/environment.ts';
import { parseSecretRef } from './vault-client.ts';
import { keptSecret, sameValues } from '../shared/bound-secret.ts';
import { parseJsonObject } from '../../lib/json-object.ts';
import { storedParams, type SecretStorageInput, type SecretStorageRow } from './secret-storage.ts';

export function listStorages(db: Db, projectId: number): Promise<SecretStorageRow[]> {
  return db.selectFrom('secret_storage').selectAll().where('project_id', '=', projectId).orderBy('name').orderBy('id').execute();
}

export function findStorage(db: Db | Tx, projectId: number, id: number): Promise<SecretStorageRow> {
  return loadProjectRow(db, 'secret_storage', projectId, id);
}

/** A credential is needed for token and approle sign-in, none for the task's JWT. */
function checkCredential(params: Record<string, string | number>, secret: string | null | undefined): void {
  if (params.auth_method === 'token' && !secret) throw badRequest('secret: required for token auth (the Vault token)');
  if (params.auth_method === 'approle' && !secret) throw badRequest('secret: required for approle auth (the secret id)');
}

export async function createStorage(tx: Tx, box: SecretBox, actor: Actor, input: SecretStorageInput): Promise<SecretStorageRow> {
  const params = storedParams(input);
  checkCredential(params, input.secret);
  const row = await tx.insertInto('secret_storage').values({
    project_id: actor.projectId, name: input.name, type: input.type!, params: JSON.stringify(params),
    readonly: input.readonly === false ? 0 : 1, secret: params.auth_method === 'jwt' ? null : sealSecret(box, input.secret), created: now(),
  }).returningAll().executeTakeFirstOrThrow();
  await recordStorageEvent(tx, actor, row, 'created');
  return row;
}

/** The parameters that say where a storage's credential goes and what it signs in as. */
const DESTINATION_PARAMS = ['url', 'namespace', 'auth_method', 'auth_mount', 'role_id'] as const;

/**
 * Updates a storage; an empty or missing `secret` keeps the stored credential while the URL and
 * sign-in stay the same (see keptSecret), and is required again when they change.
 */
export async function updateStorage(tx: Tx, box: SecretBox, actor: Actor, id: number, input: SecretStorageInput): Promise<void> {
  const existing = await findStorage(tx, actor.projectId, id);
  const params = storedParams(input);
  const same = sameValues(parseJsonObject(existing.params), params, DESTINATION_PARAMS);
  const secret = params.auth_method === 'jwt' ? null : keptSecret(input.secret ? sealSecret(box, input.secret) : null, existing.secret, same);
  if (!secret && existing.secret && !same && params.auth_method !== 'jwt') {
    throw badRequest('secret: required again, as the url or sign-in changed (a stored credential goes only where it was given)');
  }
  checkCredential(params, secret);
  await tx.updateTable('secret_storage').set({
    name: input.name, type: input.type!, params: JSON.stringify(params), readonly: input.readonly === false ? 0 : 1, secret,
  }).where('id', '=', id).execute();
  await recordStorageEvent(tx, actor, { id, name: input.name }, 'updated');
}

export interface StorageRefs {
  keys: { id: number; name: string; type: string }[];
  secrets: { id: number; name: string; type: string; environment_id: number | null }[];
}

/** The key-store keys and variable-group secrets that read their value from the storage. */
export async function storageRefs(db: Db | Tx, projectId: number, id: number): Promise<StorageRefs> {
  const rows = await db.selectFrom('access_key').select(['id', 'name', 'type', 'owner', 'environment_id'])
    .where('project_id', '=', projectId).where('source_storage_id', '=', id).orderBy('id').execute();
  return {
    keys: rows.filter((r) => r.owner === '').map((r) => ({ id: r.id, name: r.name, type: r.type })),
    secrets: rows.filter((r) => r.owner === ENVIRONMENT_KEY_OWNER).map((r) => ({ id: r.id, ...secretNameParts(r.name), environment_id: r.environment_id })),
  };
}

/** Deletes a storage no key or secret reads from. */
export async function deleteStorage(tx: Tx, actor: Actor, id: number): Promise<void> {
  const existing = await findStorage(tx, actor.projectId, id);
  const refs = await storageRefs(tx, actor.projectId, id);
  if (refs.keys.length || refs.secrets.length) {
    const names = [...refs.keys.map((k) => `key ${k.name}`), ...refs.secrets.map((s) => `secret ${s.name}`)].slice(0, 5).join(', ');
    throw badRequest(`Secret storage ${existing.name} is in use by ${names}; point them elsewhere first`);
  }
  await tx.deleteFrom('secret_storage').where('id', '=', id).execute();
  await recordStorageEvent(tx, actor, existing, 'deleted');
}

/**
 * Checks a key's or secret's storage reference: the storage belongs to the project and the
 * reference reads as `path#field`. Returns the columns to store (both null without a storage).
 */
export async function storageSource(db: Db | Tx, projectId: number, storageId: number | null | undefined, ref: string | null | undefined, at: string): Promise<{ source_storage_id: number | null; source_storage_key: string | null }> {
  if (storageId == null) return { source_storage_id: null, source_storage_key: null };
  const found = await db.selectFrom('secret_storage').select('id').where('id', '=', storageId).where('project_id', '=', projectId).executeTakeFirst();
  if (!found) throw badRequest(`${at}source_storage_id: no such secret storage in this project`);
  if (!ref || !parseSecretRef(ref)) throw badRequest(`${at}source_storage_key: use path#field, such as ci/deploy#password`);
  return { source_storage_id: storageId, source_storage_key: ref.trim() };
}

function recordStorageEvent(tx: Tx, actor: Actor, storage: Pick<SecretStorageRow, 'id' | 'name'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'secret_storage', objectId: storage.id, auditName: storage.name,
    description: `Secret storage ${storage.name} ${verb}`,
  });
}
