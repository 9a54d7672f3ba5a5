import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { parseJsonObject } from '../../lib/json-object.ts';
import { recordEvent } from '../events/event.repository.ts';
import { STORAGE_TYPES } from '../secret-storages/secret-storage.ts';
import type { RestoreContext } from './restore-context.ts';
import { uniqueNames } from './unique-names.ts';

/**
 * Secret storages in a backup (`secret_storages`, Signalbox's section): name, type, connection
 * params and read-only flag. Their credential (token, AppRole secret id) never travels, as no
 * secret does: a restored storage signs in again once its owner enters it. Keys name their
 * storage in `source_storage` beside `source_storage_key`.
 */
export const backupSecretStorageSchema = z.looseObject({
  name: z.string().trim().min(1, 'required').max(255), type: z.enum(STORAGE_TYPES),
  params: z.record(z.string(), z.union([z.string().max(2048), z.number()])).nullable().optional(), readonly: z.boolean().nullable().optional(),
});
type BackupSecretStorage = z.infer<typeof backupSecretStorageSchema>;

/** The project's storages (names made unique by the caller's key rules: storage names are kept as they are). */
export async function exportSecretStorages(db: Db, projectId: number): Promise<{ list: BackupSecretStorage[]; nameOf: Map<number, string> }> {
  const rows = await db.selectFrom('secret_storage').selectAll().where('project_id', '=', projectId).orderBy('name').orderBy('id').execute();
  const nameOf = uniqueNames(rows, (r) => r.name);
  const list = rows.map((r) => {
    const name = nameOf.get(r.id)!;
    return { name, type: r.type as BackupSecretStorage['type'], params: parseJsonObject(r.params) as Record<string, string>, readonly: Boolean(r.readonly) };
  });
  return { list, nameOf };
}

/** Before anything is written: storage names are unique, and every key's storage is in the backup. */
export function verifySecretStorages(list: BackupSecretStorage[] | null | undefined, keys: { name: string; source_storage?: string | null }[] | null | undefined): void {
  const names = new Set<string>();
  for (const [i, storage] of (list ?? []).entries()) {
    if (names.has(storage.name)) throw badRequest(`secret_storages[${i}]: name "${storage.name}" is used twice`);
    names.add(storage.name);
  }
  for (const [i, key] of (keys ?? []).entries()) {
    if (key.source_storage && !names.has(key.source_storage)) throw badRequest(`keys[${i}]: source_storage "${key.source_storage}" does not exist`);
  }
}

/** Restores the storages, without credentials; returns their ids by name for the keys. */
export async function restoreSecretStorages(ctx: RestoreContext, list: BackupSecretStorage[] | null | undefined): Promise<Map<string, number>> {
  const { tx, actor } = ctx;
  const ids = new Map<string, number>();
  for (const storage of list ?? []) {
    const row = await tx.insertInto('secret_storage').values({
      project_id: actor.projectId, name: storage.name, type: storage.type, params: JSON.stringify(storage.params ?? {}),
      readonly: storage.readonly === false ? 0 : 1, secret: null, created: now(),
    }).returningAll().executeTakeFirstOrThrow();
    ids.set(row.name, row.id);
    await recordEvent(tx, { ...actor, objectType: 'secret_storage', objectId: row.id, description: `Secret storage ${row.name} created` });
    await ctx.pause();
  }
  return ids;
}
