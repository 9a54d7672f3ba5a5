import type { Db } from '../../db/database.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { insertOutputLines } from '../output/insert-output.ts';
import { ACTIVE_STATUSES, setTaskStatus } from '../task-status.ts';
import { now } from '../../lib/time.ts';

/**
 * Crash recovery: tasks a previous server process left in an active status (its processes
 * died with it) end as `error`, each with a log line saying why. Their earlier output stays.
 * Assumes one engine per database (several servers on one database would need leases).
 * @example const recovered = await recoverInterruptedTasks(deps); // [12, 13]
 */
export async function recoverInterruptedTasks(deps: { db: Db; bus: EventBus }): Promise<number[]> {
  const rows = await deps.db.selectFrom('task').select(['id', 'status']).where('status', 'in', [...ACTIVE_STATUSES]).execute();
  const recovered: number[] = [];
  for (const row of rows) {
    await insertOutputLines(deps.db, row.id, [{ time: now(), output: `Task interrupted: the server stopped while the task was ${row.status}; marked as error on restart.` }]);
    if (await setTaskStatus(deps, row.id, 'error')) recovered.push(row.id);
  }
  return recovered;
}
