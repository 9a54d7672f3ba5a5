import type { Db } from '../../db/database.ts';
import { ACTIVE_STATUSES } from './task-status.ts';
import { parseWaitReason, type WaitReason } from './wait-reason.ts';

/** One task of the global pool, in Semaphore's shape (`GET /api/tasks`). */
export interface PoolTask {
  task_id: number;
  project_id: number;
  project_name: string;
  /** who started it; empty for schedules, webhooks and autorun */
  username: string;
  /** the remote runner it was handed to; null while it waits or runs in a server */
  runner_id: number | null;
  runner_name: string | null;
  status: string;
  /** `queue`: waiting for a slot; `running`: claimed, until it ends */
  location: 'queue' | 'running';
  /** in the queue: what it waits for, when known (Signalbox's; left out otherwise, keeping Semaphore's shape) */
  waiting_for?: WaitReason;
}

/**
 * Every queued task (oldest first, the order they will run in), then every running one.
 * @example const pool = await listTaskPool(db); pool[0].location === 'queue'
 */
export async function listTaskPool(db: Db): Promise<PoolTask[]> {
  const rows = await db.selectFrom('task')
    .innerJoin('project', 'project.id', 'task.project_id')
    .leftJoin('user', 'user.id', 'task.user_id')
    .leftJoin('runner', 'runner.id', 'task.runner_id')
    .select(['task.id', 'task.project_id', 'task.status', 'project.name as project_name', 'user.username', 'task.runner_id', 'runner.name as runner_name', 'task.waiting_for'])
    .where('task.status', 'in', ['waiting', ...ACTIVE_STATUSES])
    .orderBy('task.id')
    .execute();
  const pool = rows.map((row): PoolTask => {
    const reason = row.status === 'waiting' ? parseWaitReason(row.waiting_for) : null;
    return {
      task_id: row.id, project_id: row.project_id, project_name: row.project_name, username: row.username ?? '',
      runner_id: row.runner_id ?? null, runner_name: row.runner_id ? (row.runner_name ?? '') : null, status: row.status, location: row.status === 'waiting' ? 'queue' : 'running',
      ...(reason ? { waiting_for: reason } : {}),
    };
  });
  return [...pool.filter((t) => t.location === 'queue'), ...pool.filter((t) => t.location === 'running')];
}
