import { writeAudit } from '../audit/audit.writer.ts';
import { auditNothingChanged } from '../audit/audit-context.ts';
import type { Deps } from '../../deps.ts';
import type { TaskRow } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { isFinished, setTaskStatus } from './task-status.ts';

/**
 * Stops a task: a waiting one ends `stopped` at once; a running one goes to `stopping` (the
 * engine sends SIGTERM, SIGKILL after the grace period) or, with force, straight to `stopped`
 * (SIGKILL at once). Stopping a finished task succeeds and changes nothing: Semaphore answers
 * it too (with 204), though it then overwrites the task's result with `stopped`.
 * @example await stopTask(deps, task, false);
 */
export async function stopTask(deps: Deps, task: TaskRow, force: boolean): Promise<void> {
  if (isFinished(task.status)) return auditNothingChanged();
  const to = force || task.status === 'waiting' ? 'stopped' : 'stopping';
  if (task.status === to) return;
  if (await setTaskStatus(deps, task.id, to)) return;
  // The status moved under us (claimed, or finished): try once more from the fresh row.
  const fresh = await deps.db.selectFrom('task').selectAll().where('id', '=', task.id).executeTakeFirst();
  if (fresh && !isFinished(fresh.status) && fresh.status !== task.status) await stopTask(deps, fresh, force);
}

/**
 * Confirms (apply) or rejects a plan; only a task in `waiting_confirmation` takes either.
 * @example await decideTask(deps, task, 'confirmed');
 */
export async function decideTask(deps: Deps, task: TaskRow, decision: 'confirmed' | 'rejected'): Promise<void> {
  if (task.status !== 'waiting_confirmation' || !(await setTaskStatus(deps, task.id, decision))) {
    throw badRequest('Task is not waiting for confirmation');
  }
}

/** Deletes a finished task and its output (admins only, checked by the route). */
export async function deleteTask(deps: Deps, task: TaskRow): Promise<void> {
  if (!isFinished(task.status)) throw badRequest('Task is queued or running; stop it first');
  await deps.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('task_output').where('task_id', '=', task.id).execute();
    await tx.deleteFrom('task').where('id', '=', task.id).execute();
    await writeAudit(tx, { objectType: 'task', objectId: task.id, projectId: task.project_id, description: `Task ${task.id} deleted` });
  });
}
