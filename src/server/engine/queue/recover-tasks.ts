import type { Db } from '../../db/database.ts';
import type { Config } from '../../config/config.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { insertOutputLines } from '../output/insert-output.ts';
import { ACTIVE_STATUSES, setTaskStatus } from '../../domain/tasks/task-status.ts';
import { now } from '../../lib/time.ts';
import { findLiveWorkers, type WorkerIdentity } from './engine-workers.ts';
import { endSurvivingGroup } from './task-processes.ts';
import { endSurvivingContainer, sweepTaskContainers } from '../container/container-recovery.ts';

type RecoveryDeps = { db: Db; bus: EventBus; config: Pick<Config, 'tmp_path' | 'executor'> };

/**
 * Crash recovery: tasks left in an active status by an engine that is gone end as `error`, each
 * with a log line saying why; their earlier output stays. A process group the task left running
 * on this machine is ended first (and the log says so), so no side effect lands after the task
 * shows `error`; so is the container of a task that ran in one. Tasks of live engines — other servers on the same database, and this one — are
 * left alone, and so are tasks handed to remote runners (their own timeouts apply: engine/remote).
 * @example const recovered = await recoverInterruptedTasks(deps, self); // [12, 13]
 */
export async function recoverInterruptedTasks(deps: RecoveryDeps, self: WorkerIdentity): Promise<number[]> {
  const alive = await findLiveWorkers(deps.db, self);
  alive.add(self.id);
  const rows = await deps.db.selectFrom('task').select(['id', 'status', 'locked_by', 'process_group', 'process_host', 'process_boot_id', 'executor_image'])
    .where('status', 'in', [...ACTIVE_STATUSES]).where('runner_id', 'is', null).execute();
  const recovered: number[] = [];
  for (const row of rows) {
    if (row.locked_by && alive.has(row.locked_by)) continue;
    const lines = [];
    if (await endSurvivingGroup(row)) lines.push({ time: now(), output: `Task interrupted: its processes (group ${row.process_group}) were still running after the server stopped; they were ended.` });
    if (await endSurvivingContainer({ tmpPath: deps.config.tmp_path, executor: deps.config.executor }, row)) {
      lines.push({ time: now(), output: `Task interrupted: its container (${row.executor_image}) was still running after the server stopped; it was removed.` });
    }
    lines.push({ time: now(), output: `Task interrupted: the server stopped while the task was ${row.status}; marked as error on restart.` });
    await insertOutputLines(deps.db, row.id, lines);
    if (await setTaskStatus(deps, row.id, 'error')) recovered.push(row.id);
  }
  return recovered;
}

/**
 * Removes the containers of this installation whose tasks are over (a crash, a removal that
 * failed), keeping those of tasks that live engines (this one included) still run.
 * @example void removeLeftoverContainers(deps, self).catch(warn);
 */
export async function removeLeftoverContainers(deps: RecoveryDeps, self: WorkerIdentity): Promise<number[]> {
  return sweepTaskContainers({ tmpPath: deps.config.tmp_path, executor: deps.config.executor }, async (taskIds) => {
    const alive = await findLiveWorkers(deps.db, self);
    alive.add(self.id);
    const rows = await deps.db.selectFrom('task').select(['id', 'locked_by']).where('id', 'in', taskIds).where('status', 'in', [...ACTIVE_STATUSES]).execute();
    return new Set(rows.filter((r) => r.locked_by !== null && alive.has(r.locked_by)).map((r) => r.id));
  });
}
