import type { Db, Tx } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { assertBodyMatchesUrl, type Actor } from '../project-resource.ts';
import { ACTIVE_STATUSES } from '../tasks/task-status.ts';
import type { Lock, LockInput, LockRow } from './lock.ts';

export async function findLock(db: Db | Tx, projectId: number, id: number): Promise<LockRow> {
  const row = await db.selectFrom('project_lock').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * The project's locks by name, each with its templates, holders and waiting count.
 * @example const locks = await listLocks(db, 1); locks[0].held_by // [812]
 */
export async function listLocks(db: Db | Tx, projectId: number, only?: number): Promise<Lock[]> {
  let query = db.selectFrom('project_lock').selectAll().where('project_id', '=', projectId);
  if (only !== undefined) query = query.where('id', '=', only);
  const rows = await query.orderBy('name').execute();
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const uses = await db.selectFrom('template_lock').select(['lock_id', 'template_id']).where('lock_id', 'in', ids).orderBy('template_id').execute();
  const tasks = await db.selectFrom('task').innerJoin('template_lock as tl', 'tl.template_id', 'task.template_id')
    .select(['tl.lock_id', 'task.id', 'task.status']).where('tl.lock_id', 'in', ids)
    .where('task.status', 'in', ['waiting', ...ACTIVE_STATUSES]).orderBy('task.id').execute();
  return rows.map((row) => ({
    id: row.id, project_id: row.project_id, name: row.name, capacity: row.capacity, description: row.description,
    templates: uses.filter((u) => u.lock_id === row.id).map((u) => u.template_id),
    held_by: tasks.filter((t) => t.lock_id === row.id && t.status !== 'waiting').map((t) => t.id),
    waiting: tasks.filter((t) => t.lock_id === row.id && t.status === 'waiting').length,
  }));
}

export async function createLock(tx: Tx, actor: Actor, input: LockInput): Promise<LockRow> {
  assertBodyMatchesUrl(input, actor.projectId);
  if (!input.name) throw badRequest('name: required');
  await refuseTakenName(tx, actor.projectId, input.name);
  const row = await tx.insertInto('project_lock').values({
    project_id: actor.projectId, name: input.name, capacity: input.capacity ?? 1, description: input.description ?? '', created: now(),
  }).returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, objectType: 'lock', objectId: row.id, description: `Lock ${row.name} created` });
  return row;
}

/** Renaming a lock keeps it on its templates (they refer to it, not to its name). */
export async function updateLock(tx: Tx, actor: Actor, current: LockRow, input: LockInput): Promise<void> {
  assertBodyMatchesUrl(input, actor.projectId, current.id);
  const name = input.name ?? current.name;
  if (name !== current.name) await refuseTakenName(tx, actor.projectId, name);
  await tx.updateTable('project_lock').set({
    name, capacity: input.capacity ?? current.capacity, description: input.description !== undefined ? input.description ?? '' : current.description,
  }).where('id', '=', current.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'lock', objectId: current.id, description: `Lock ${name} updated` });
}

/** A lock its templates still need is kept: deleting it would let their tasks run unguarded. */
export async function deleteLock(tx: Tx, actor: Actor, lock: LockRow): Promise<void> {
  const user = await tx.selectFrom('template_lock').innerJoin('template', 'template.id', 'template_lock.template_id')
    .select(['template.id', 'template.name']).where('template_lock.lock_id', '=', lock.id).orderBy('template.id').executeTakeFirst();
  if (user) throw badRequest(`Lock ${lock.name} is needed by template ${user.id} "${user.name}"; remove it there first`);
  await tx.deleteFrom('project_lock').where('id', '=', lock.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'lock', objectId: lock.id, description: `Lock ${lock.name} deleted` });
}

async function refuseTakenName(db: Db | Tx, projectId: number, name: string): Promise<void> {
  const taken = await db.selectFrom('project_lock').select('id').where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
  if (taken) throw badRequest(`name: lock ${taken.id} already has the name "${name}" in this project`);
}
