import type { Db } from '../../db/database.ts';
import { now } from '../../lib/time.ts';
import { isProcessAlive } from './this-machine.ts';

/** How often a running engine renews its heartbeat. */
export const HEARTBEAT_MS = 10_000;
/** An engine silent for this long is gone; its tasks are recovered. */
export const STALE_AFTER_MS = 60_000;

export interface WorkerIdentity {
  id: string;
  host: string;
  pid: number;
}

/**
 * Announces this engine (or renews its heartbeat): one row per engine id.
 * @example await beatHeartbeat(db, { id: 'host:12:ab12', host: 'host', pid: 12 });
 */
export async function beatHeartbeat(db: Db, self: WorkerIdentity): Promise<void> {
  const time = now();
  const updated = await db.updateTable('engine_worker').set({ heartbeat_at: time }).where('id', '=', self.id).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await db.insertInto('engine_worker').values({ id: self.id, host: self.host, pid: self.pid, started: time, heartbeat_at: time }).execute();
  }
}

/** Removes this engine's row on a clean shutdown. */
export async function retireWorker(db: Db, id: string): Promise<void> {
  await db.deleteFrom('engine_worker').where('id', '=', id).execute();
}

/**
 * Ids of the other engines that are alive: a recent heartbeat, and — for engines on this host —
 * a process that still exists (a server killed with -9 and restarted at once would otherwise look
 * alive for a minute). Rows of dead engines are deleted.
 * @example const alive = await findLiveWorkers(db, self);
 */
export async function findLiveWorkers(db: Db, self: WorkerIdentity): Promise<Set<string>> {
  const staleBefore = new Date(Date.now() - STALE_AFTER_MS).toISOString();
  const rows = await db.selectFrom('engine_worker').selectAll().execute();
  const alive = new Set<string>();
  const dead: string[] = [];
  for (const row of rows) {
    if (row.id === self.id) continue;
    const gone = row.heartbeat_at < staleBefore || (row.host === self.host && (row.pid === self.pid || !isProcessAlive(row.pid)));
    if (gone) dead.push(row.id);
    else alive.add(row.id);
  }
  if (dead.length) await db.deleteFrom('engine_worker').where('id', 'in', dead).execute();
  return alive;
}
