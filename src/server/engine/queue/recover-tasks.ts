import type { Db } from '../../db/database.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { insertOutputLines } from '../output/insert-output.ts';
import { ACTIVE_STATUSES, setTaskStatus } from '../../domain/tasks/task-status.ts';
import { now } from '../../lib/time.ts';
import { findLiveWorkers, type WorkerIdentity } from './engine-workers.ts';
import { endSurvivingGroup } from './task-processes.ts';

/**
 * Crash recovery: tasks left in an active status by an engine that is gone end as `error`, each
 * with a log line saying why; their earlier output stays. A process group the task left running
 * on this machine is ended first (and the log says so), so no side effect lands after the task
 * shows `error`. Tasks of live engines — other servers on the same database, and this one — are
 * left alone, and so are tasks handed to remote runners (their own timeouts apply: engine/remote).
 * @example const recovered = await recoverInterruptedTasks(deps, self); // [12, 13]
 */
export async function recoverInterruptedTasks(deps: { db: Db; bus: EventBus }, self: WorkerIdentity): Promise<number[]> {
  const alive = await findLiveWorkers(deps.db, self);
  alive.add(self.id);
  const rows = await deps.db.selectFrom('task').select(['id', 'status', 'locked_by', 'process_group', 'process_host', 'process_boot_id'])
    .where('status', 'in', [...ACTIVE_STATUSES]).where('runner_id', 'is', null).execute();
  const recovered: number[] = [];
  for (const row of rows) {
    if (row.locked_by && alive.has(row.locked_by)) continue;
    const lines = [];
    if (await endSurvivingGroup(row)) lines.push({ time: now(), output: `Task interrupted: its processes (group ${row.process_group}) were still running after the server stopped; they were ended.` });
    lines.push({ time: now(), output: `Task interrupted: the server stopped while the task was ${row.status}; marked as error on restart.` });
    await insertOutputLines(deps.db, row.id, lines);
    if (await setTaskStatus(deps, row.id, 'error')) recovered.push(row.id);
  }
  return recovered;
}
