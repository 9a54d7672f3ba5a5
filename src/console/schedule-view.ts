// The schedule list's "next run" and times, in the server's schedule time zone (seed 001 §9).
// Server-only: it uses the scheduler's own cron parser, so the list says what the scheduler does.
import { nextDue } from '../server/lib/cron.ts';
import { localeTag } from './cron-words.ts';

export interface Schedule {
  id: number; project_id: number; template_id: number; tpl_name?: string; name: string;
  cron_format: string; type: '' | 'run_at'; run_at: string | null; active: boolean; repository_id: number | null;
  /** the schedule's own zone; '' or absent: the server's */
  timezone?: string;
  /** why its latest firing started no task; absent once one did */
  last_error?: string;
  /** who it acts for (who last saved it); null: nobody */
  owner_id?: number | null;
}

/**
 * When the schedule fires next, or null (switched off, a one-shot time that passed, a cron
 * that never fires or does not parse).
 * @example nextRun({ ...s, cron_format: '0 * * * *' }, 'UTC', new Date('2026-01-01T10:15:00Z')) // 11:00Z
 */
export function nextRun(schedule: Pick<Schedule, 'active' | 'type' | 'run_at' | 'cron_format'>, timezone: string, now = new Date()): Date | null {
  if (!schedule.active) return null;
  if (schedule.type === 'run_at') {
    const at = schedule.run_at ? new Date(schedule.run_at) : null;
    return at && at.getTime() > now.getTime() ? at : null;
  }
  try {
    return nextDue(schedule.cron_format, now, timezone);
  } catch {
    return null;
  }
}

/** A date and time in the user's language, as the clock in `timezone` shows it. */
export function formatInZone(date: Date, timezone: string, lang: string): string {
  try {
    return new Intl.DateTimeFormat(localeTag(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }).format(date);
  } catch {
    return date.toISOString();
  }
}

/**
 * `YYYY-MM-DDTHH:MM` as the clock in `timezone` shows `iso`: the value of a datetime-local
 * field (the API reads a time without a zone in the schedule time zone).
 * @example wallClockInput('2026-07-01T07:00:00Z', 'Europe/Berlin') // '2026-07-01T09:00'
 */
export function wallClockInput(iso: string | null | undefined, timezone: string): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    }).formatToParts(date);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
    return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
  } catch {
    return iso!.slice(0, 16);
  }
}
