import { readFileSync, readdirSync } from 'node:fs';
import type { Db } from '../../db/database.ts';
import { bootId, processStat, thisHost } from './this-machine.ts';

/**
 * Every task process carries `SIGNALBOX_TASK_ID=<id>` in its environment, so recovery ends a
 * recorded process group only while it still holds that task's processes: after a long
 * downtime the group id may belong to something else.
 */
export const TASK_MARKER_VAR = 'SIGNALBOX_TASK_ID';

/** How long a surviving task group gets between SIGTERM and SIGKILL during recovery. */
export const RECOVERY_GRACE_MS = 3000;

/**
 * Notes the process group of the command a task runs now, with host and boot id.
 * @example await recordProcessGroup(db, 12, child.pid);
 */
export async function recordProcessGroup(db: Db, taskId: number, pgid: number): Promise<void> {
  await db.updateTable('task').set({ process_group: pgid, process_host: thisHost(), process_boot_id: bootId() }).where('id', '=', taskId).execute();
}

/** True while a live (non-zombie) process of the task (by its environment marker) is in the group. */
export function groupHasLiveMembers(pgid: number, taskId: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return false;
  }
  const marker = `${TASK_MARKER_VAR}=${taskId}`;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = processStat(entry);
    if (!fields || Number(fields[2]) !== pgid || fields[0] === 'Z') continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(marker)) return true;
    } catch { /* gone meanwhile */ }
  }
  return false;
}

/**
 * Ends a task's process group left by a crashed server on this host and boot: SIGTERM, then
 * SIGKILL after the grace period. Returns true when there was something to end.
 * @example if (await endSurvivingGroup(row)) log('ended the processes the task left running');
 */
export async function endSurvivingGroup(row: { id: number; process_group: number | null; process_host: string | null; process_boot_id: string | null }, graceMs = RECOVERY_GRACE_MS): Promise<boolean> {
  const pgid = row.process_group;
  if (!pgid || row.process_host !== thisHost() || row.process_boot_id !== bootId()) return false;
  const alive = () => groupHasLiveMembers(pgid, row.id);
  if (!alive()) return false;
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && alive()) await new Promise((r) => setTimeout(r, 50));
  if (alive()) signalGroup(pgid, 'SIGKILL');
  return true;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch { /* already gone */ }
}
