import type { Deps } from '../deps.ts';
import type { TaskRow } from '../db/schema.ts';
import { enqueueTask } from '../domain/tasks/enqueue-task.ts';
import { recordEvent } from '../domain/events/event.repository.ts';
import { parseJsonObject } from '../lib/json-object.ts';
import { RUN_AT_TYPE } from './due-time.ts';
import { readRemoteHead } from './remote-head.ts';
import { claimFiring, deactivateSchedule, setFiringTask, storeCommitHash, type ScheduleRow } from './schedule.repository.ts';

/**
 * Fires one due time of a schedule, if this process wins the claim for it: a commit schedule
 * first asks the remote for the branch head and goes on only when it changed; then a task is
 * queued (schedule_id set, no user, the schedule's task_params as params); a one-shot schedule
 * is switched off afterwards. Returns the queued task, or null when nothing was started.
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

  const task = await enqueueTask(deps, {
    projectId: schedule.project_id,
    templateId: schedule.template_id,
    scheduleId: schedule.id,
    userId: null,
    params: parseJsonObject(schedule.task_params),
    commitHash,
  });
  await setFiringTask(deps.db, schedule.id, due, task.id);
  await deps.db.transaction().execute(async (tx) => {
    if (oneShot) await deactivateSchedule(tx, schedule.id);
    await recordEvent(tx, {
      projectId: schedule.project_id, userId: null, objectType: 'schedule', objectId: schedule.id,
      description: oneShot
        ? `Schedule ID ${schedule.id} started Task ID ${task.id} and was deactivated (one-shot run)`
        : `Schedule ID ${schedule.id} started Task ID ${task.id}`,
    });
  });
  return task;
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
