import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { readKeySecret } from '../keys/key-secret.ts';
import { isFinished } from '../tasks/task-status.ts';
import { verifyTaskStateCredentials } from './task-state-credentials.ts';

/** The workspace an alias opens, and who is writing (a task of ours, or a key holder). */
export interface StateAccess { projectId: number; inventoryId: number; taskId: number | null }

/** What LOCK/UNLOCK/POST answer: done, or the lock that stands in the way (terraform prints it). */
export type LockOutcome = { ok: true } | { ok: false; holder: string };

/**
 * Resolves `/api/terraform/<alias>` and checks HTTP basic auth against it: either the alias's
 * login_password key, or the credentials a running task of that workspace was given.
 * Missing credentials: 401; wrong ones: 403 (terraform tells the two apart).
 */
export async function openStateAccess(db: Db, box: SecretBox, alias: string, authorization: string | undefined): Promise<StateAccess> {
  const row = /^[a-z0-9]{1,64}$/.test(alias)
    ? await db.selectFrom('terraform_alias').selectAll().where('alias', '=', alias).executeTakeFirst()
    : undefined;
  if (!row) throw notFound();
  const credentials = parseBasicAuth(authorization);
  if (!credentials) throw new ApiError('unauthorized', '', {}, { 'www-authenticate': 'Basic realm="terraform state"' });
  const access = { projectId: row.project_id, inventoryId: row.inventory_id };
  const taskId = verifyTaskStateCredentials(box, credentials, row.inventory_id);
  if (taskId !== null) {
    const task = await db.selectFrom('task').select(['status', 'project_id']).where('id', '=', taskId).executeTakeFirst();
    if (task && task.project_id === row.project_id && !isFinished(task.status)) return { ...access, taskId };
    throw new ApiError('forbidden');
  }
  if (row.auth_key_id !== null) {
    const key = await db.selectFrom('access_key').select(['type', 'secret']).where('id', '=', row.auth_key_id).executeTakeFirst();
    const secret = key ? readKeySecret(box, key) : null;
    if (secret?.type === 'login_password' && sameText(secret.login, credentials.user) && sameText(secret.password, credentials.password)) {
      return { ...access, taskId: null };
    }
  }
  throw new ApiError('forbidden');
}

/** The newest state text of the workspace, or null when none was written yet. */
export async function readLatestState(db: Db, access: StateAccess): Promise<string | null> {
  const row = await db.selectFrom('terraform_state').select('state').where('inventory_id', '=', access.inventoryId)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.state ?? null;
}

/** LOCK: takes the workspace's lock for terraform's lock info `{ID, Operation, Who, ...}`. */
export async function lockState(db: Db, access: StateAccess, body: string): Promise<LockOutcome> {
  const id = lockIdOf(body);
  if (!id) throw badRequest('lock info: an ID is required');
  const inserted = await db.insertInto('terraform_lock').values({ inventory_id: access.inventoryId, lock_id: id, info: body, created: now() })
    .onConflict((oc) => oc.column('inventory_id').doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { ok: true };
  const holder = await currentLock(db, access.inventoryId);
  if (!holder) return lockState(db, access, body);
  return holder.lock_id === id ? { ok: true } : { ok: false, holder: holder.info };
}

/** UNLOCK: releases the lock named in the body; an empty body (force-unlock) releases any. */
export async function unlockState(db: Db, access: StateAccess, body: string): Promise<LockOutcome> {
  const id = body.trim() ? lockIdOf(body) : null;
  if (body.trim() && !id) throw badRequest('lock info: an ID is required');
  const holder = await currentLock(db, access.inventoryId);
  if (holder && id !== null && holder.lock_id !== id) return { ok: false, holder: holder.info };
  await db.deleteFrom('terraform_lock').where('inventory_id', '=', access.inventoryId).execute();
  return { ok: true };
}

/** POST: stores a new state version; while the workspace is locked only the holder (`?ID=`) may write. */
export async function writeState(db: Db, access: StateAccess, lockId: string | undefined, state: string): Promise<LockOutcome> {
  if (!isJsonObject(state)) throw badRequest('state: must be a JSON object');
  const holder = await currentLock(db, access.inventoryId);
  if (holder && holder.lock_id !== lockId) return { ok: false, holder: holder.info };
  await db.insertInto('terraform_state')
    .values({ project_id: access.projectId, inventory_id: access.inventoryId, task_id: access.taskId, state, created: now() })
    .execute();
  return { ok: true };
}

function currentLock(db: Db, inventoryId: number) {
  return db.selectFrom('terraform_lock').select(['lock_id', 'info']).where('inventory_id', '=', inventoryId).executeTakeFirst();
}

function lockIdOf(body: string): string | null {
  try {
    const info = JSON.parse(body) as { ID?: unknown };
    return typeof info.ID === 'string' && info.ID.length > 0 && info.ID.length <= 200 ? info.ID : null;
  } catch {
    return null;
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text);
    return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

function parseBasicAuth(header: string | undefined): { user: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
