import type { Deps } from '../deps.ts';
import type { TaskRow } from '../db/schema.ts';
import { launchTask } from '../domain/tasks/launch/launch-task.ts';
import { taskInputOfStoredParams } from '../domain/tasks/launch/stored-task-params.ts';
import { ApiError } from '../http/errors.ts';
import { recordEvent } from '../domain/events/event.repository.ts';
import { parseJsonObject } from '../lib/json-object.ts';
import { RUN_AT_TYPE } from './due-time.ts';
import { readRemoteHead } from '../domain/repositories/remote-head.ts';
import { claimFiring, deactivateSchedule, setFiringTask, storeCommitHash, type ScheduleRow } from './schedule.repository.ts';

/**
 * Fires one due time of a schedule, if this process wins the claim for it: a commit schedule
 * first asks the remote for the branch head and goes on only when it changed; then the task
 * starts through the launch function (schedule_id set, no user, what the schedule's
 * task_params ask for); a one-shot schedule is switched off afterwards. A start the launch
 * rules refuse (a required survey answer without a default, a deploy with no build) is
 * recorded on the schedule (`last_error`) and in the project's activity, as nobody is there
 * to ask. Returns the queued task, or null when nothing was started.
 * @example await fireSchedule(deps, row, new Date('2026-11-22T14:00:00Z'));
 */
export async function fireSchedule(deps: Deps, schedule: ScheduleRow, dueAt: Date): Promise<TaskRow | null> {
  const due = dueAt.toISOString();
  if (!(await claimFiring(deps.db, schedule.id, due))) return null;
  const oneShot = schedule.type === RUN_AT_TYPE;

  let commitHash: string | null = null;
  if (schedule.repository_id !== null && !oneShot) {
    commitHash = await readNewHead(deps, schedule);
    if (commitHash === null) return null;
  }

  const input = taskInputOfStoredParams(schedule.template_id, parseJsonObject(schedule.task_params));
  if (commitHash) input.commit_hash = commitHash;
  let task: TaskRow;
  try {
    ({ task } = await launchTask(deps, { path: 'schedule', user: null, permissions: 0, valuesFrom: 'configuration', scheduleId: schedule.id, ownerId: schedule.owner_id }, { projectId: schedule.project_id, input }));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await recordRefusal(deps, schedule, oneShot, err.message);
    return null;
  }
  await setFiringTask(deps.db, schedule.id, due, task.id);
  await deps.db.transaction().execute(async (tx) => {
    if (oneShot) await deactivateSchedule(tx, schedule.id);
    await tx.updateTable('schedule').set({ last_error: '' }).where('id', '=', schedule.id).where('last_error', '!=', '').execute();
    await recordEvent(tx, {
      projectId: schedule.project_id, userId: null, objectType: 'schedule', objectId: schedule.id,
      description: oneShot
        ? `Schedule ID ${schedule.id} started Task ID ${task.id} and was deactivated (one-shot run)`
        : `Schedule ID ${schedule.id} started Task ID ${task.id}`,
    });
  });
  return task;
}

/** A refused firing: its reason on the schedule and in the activity; a one-shot schedule is spent all the same. */
async function recordRefusal(deps: Deps, schedule: ScheduleRow, oneShot: boolean, reason: string): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    await tx.updateTable('schedule').set({ last_error: reason }).where('id', '=', schedule.id).execute();
    if (oneShot) await deactivateSchedule(tx, schedule.id);
    await recordEvent(tx, {
      projectId: schedule.project_id, userId: null, objectType: 'schedule', objectId: schedule.id,
      description: `Schedule ID ${schedule.id} started no task: ${reason}${oneShot ? ' (one-shot run, deactivated)' : ''}`,
    });
  });
}

/** The branch head when it differs from the last one seen (stored as seen), otherwise null. */
async function readNewHead(deps: Deps, schedule: ScheduleRow): Promise<string | null> {
  const repository = await deps.db.selectFrom('repository').select(['git_url', 'git_branch', 'ssh_key_id'])
    .where('id', '=', schedule.repository_id!).where('project_id', '=', schedule.project_id).executeTakeFirst();
  if (!repository) throw new Error(`schedule ${schedule.id}: repository ${schedule.repository_id} not found`);
  const head = await readRemoteHead(deps, repository);
  if (head === schedule.last_commit_hash) return null;
  return (await storeCommitHash(deps.db, schedule.id, schedule.last_commit_hash, head)) ? head : null;
}
