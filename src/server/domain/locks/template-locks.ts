import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';

/** More locks than this on one template would be a design to rethink, not a queue. */
export const MAX_TEMPLATE_LOCKS = 20;

/**
 * The ids of the locks a template names, each a lock of the project, none twice.
 * @example await checkTemplateLocks(tx, projectId, ['prod', 'db-migrations']) // [3, 7]
 */
export async function checkTemplateLocks(db: Db | Tx, projectId: number, names: string[]): Promise<number[]> {
  if (names.length > MAX_TEMPLATE_LOCKS) throw badRequest(`locks: at most ${MAX_TEMPLATE_LOCKS} locks`);
  if (new Set(names).size !== names.length) throw badRequest('locks: a lock is listed twice');
  if (!names.length) return [];
  const rows = await db.selectFrom('project_lock').select(['id', 'name']).where('project_id', '=', projectId).where('name', 'in', names).execute();
  const missing = names.find((name) => !rows.some((r) => r.name === name));
  if (missing !== undefined) throw badRequest(`locks: no lock "${missing}" in this project`);
  return names.map((name) => rows.find((r) => r.name === name)!.id);
}

/** The names of each template's locks, by name; templates without any are absent. */
export async function readTemplateLocks(db: Db | Tx, templateIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!templateIds.length) return out;
  const rows = await db.selectFrom('template_lock').innerJoin('project_lock', 'project_lock.id', 'template_lock.lock_id')
    .select(['template_lock.template_id', 'project_lock.name']).where('template_lock.template_id', 'in', templateIds)
    .orderBy('template_lock.template_id').orderBy('project_lock.name').execute();
  for (const row of rows) out.set(row.template_id, [...(out.get(row.template_id) ?? []), row.name]);
  return out;
}

/** Makes a template's locks exactly `lockIds`. */
export async function writeTemplateLocks(tx: Tx, templateId: number, lockIds: number[]): Promise<void> {
  await tx.deleteFrom('template_lock').where('template_id', '=', templateId).execute();
  if (lockIds.length) await tx.insertInto('template_lock').values(lockIds.map((lockId) => ({ template_id: templateId, lock_id: lockId }))).execute();
}
