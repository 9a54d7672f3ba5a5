import type { Selectable } from 'kysely';
import type { Db, Tx } from '../db/database.ts';
import type { ScheduleTable } from '../db/schema.ts';

export type ScheduleRow = Selectable<ScheduleTable>;

/** Every schedule the scheduler should hold: the active ones. */
export async function listActiveSchedules(db: Db): Promise<ScheduleRow[]> {
  return db.selectFrom('schedule').selectAll().where('active', '=', 1).execute();
}

/** One schedule as it is now, or undefined when it was deleted. */
export async function findSchedule(db: Db, id: number): Promise<ScheduleRow | undefined> {
  return db.selectFrom('schedule').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Claims one firing: the (schedule_id, due_at) primary key lets exactly one of several server
 * processes insert the row, and only that process starts the task.
 * @example if (await claimFiring(db, 4, '2026-11-22T14:00:00.000Z')) await enqueue(...)
 */
export async function claimFiring(db: Db, scheduleId: number, dueAt: string): Promise<boolean> {
  const inserted = await db.insertInto('schedule_firing').values({ schedule_id: scheduleId, due_at: dueAt, task_id: null })
    .onConflict((oc) => oc.columns(['schedule_id', 'due_at']).doNothing())
    .returning('schedule_id').executeTakeFirst();
  return inserted !== undefined;
}

/** Notes which task a claimed firing started. */
export async function setFiringTask(db: Db, scheduleId: number, dueAt: string, taskId: number): Promise<void> {
  await db.updateTable('schedule_firing').set({ task_id: taskId }).where('schedule_id', '=', scheduleId).where('due_at', '=', dueAt).execute();
}

/**
 * Stores a newly seen branch head, only if nobody stored another one since `previous` was read.
 * Returns false when the row changed meanwhile (then the caller must not start a task).
 */
export async function storeCommitHash(db: Db, scheduleId: number, previous: string | null, head: string): Promise<boolean> {
  let query = db.updateTable('schedule').set({ last_commit_hash: head }).where('id', '=', scheduleId);
  query = previous === null ? query.where('last_commit_hash', 'is', null) : query.where('last_commit_hash', '=', previous);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Switches a spent one-shot schedule off. */
export async function deactivateSchedule(db: Db | Tx, scheduleId: number): Promise<void> {
  await db.updateTable('schedule').set({ active: 0 }).where('id', '=', scheduleId).execute();
}

/** Forgets firing claims older than `before`; they only matter around their due time. */
export async function pruneFirings(db: Db, before: string): Promise<void> {
  await db.deleteFrom('schedule_firing').where('due_at', '<', before).execute();
}
