import type { ScheduleRow } from './schedule.repository.ts';
import { nextDue } from '../lib/cron.ts';
import { parseScheduleTime } from '../lib/wall-clock.ts';

/** Schedule type of one-shot runs; every other value is a cron schedule. */
export const RUN_AT_TYPE = 'run_at';

/**
 * The next time a schedule is due strictly after `after`, or null when it is never due again
 * (a one-shot whose time has passed, an unparsable expression).
 *
 * Missed-firing rule: due times are always computed forward from "now", so firings that fell
 * into a downtime (server stopped, process suspended) are not replayed — neither in a burst nor
 * once. After a start the scheduler waits for the next due time. A one-shot (`run_at`) whose
 * time passed while no scheduler was running is therefore never run; it stays as it is.
 * Times are read in the schedule's own zone, else in `serverZone`; `run_at` without a zone
 * designator is a wall-clock time there.
 */
export function computeNextDue(schedule: ScheduleRow, after: Date, serverZone: string): Date | null {
  const timezone = schedule.timezone || serverZone;
  if (schedule.type === RUN_AT_TYPE) {
    if (!schedule.run_at) return null;
    const at = parseScheduleTime(schedule.run_at, timezone);
    return at === null || at <= after ? null : at;
  }
  try {
    return nextDue(schedule.cron_format, after, timezone);
  } catch {
    return null;
  }
}

/** What decides a schedule's due times; when it changes, the due time is computed afresh. */
export function timingSignature(schedule: ScheduleRow): string {
  return JSON.stringify([schedule.type, schedule.cron_format, schedule.run_at, schedule.repository_id, schedule.timezone]);
}
