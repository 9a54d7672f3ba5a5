import { Cron } from 'croner';
import { ownValue } from './own-value.ts';

/** A parsed schedule expression: either a calendar pattern or a fixed interval. */
export type CronSchedule =
  | { kind: 'pattern'; cron: Cron }
  | { kind: 'every'; intervalMs: number };

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const DURATION_UNITS_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Semaphore cron expression (robfig/cron "standard" syntax): five fields
 * `minute hour day-of-month month day-of-week`, the @yearly/@monthly/@weekly/@daily/@hourly
 * descriptors, or `@every <Go duration>` such as `@every 1h30m`. Throws an Error carrying the
 * parser's message when the expression or the time zone is invalid.
 * @example parseCron('*\/5 * * * *', 'UTC'); parseCron('@every 90s', 'Europe/Berlin');
 */
export function parseCron(expr: string, timezone: string): CronSchedule {
  const text = expr.trim();
  if (text.startsWith('@every')) return { kind: 'every', intervalMs: parseEveryDuration(text.slice('@every'.length).trim()) };
  const pattern = ownValue(DESCRIPTORS, text.toLowerCase()) ?? text;
  if (pattern.startsWith('@')) throw new Error(`unrecognized descriptor: ${text}`);
  // croner would speak of "five, six, or seven parts": only five are accepted, as the form's hint says
  const fields = pattern.split(/\s+/).length;
  if (fields !== 5) throw new Error(`expected exactly five fields (minute hour day month weekday), found ${fields}: ${text}`);
  const cron = new Cron(pattern, { timezone, paused: true, mode: '5-part' });
  // croner checks the time zone only when it computes a time, so compute one now.
  cron.nextRun(new Date(0));
  return { kind: 'pattern', cron };
}

/**
 * The first due time strictly after `after`, or null when the expression never fires again.
 * `@every` intervals are aligned to the Unix epoch (not to the moment the server started), so
 * every server process computes the same due times and the firing claim can deduplicate them.
 * @example nextDue('0 * * * *', new Date('2026-01-01T10:15:00Z'), 'UTC') // 2026-01-01T11:00:00Z
 */
export function nextDue(expr: string, after: Date, timezone: string): Date | null {
  const schedule = parseCron(expr, timezone);
  if (schedule.kind === 'every') {
    const step = schedule.intervalMs;
    return new Date((Math.floor(after.getTime() / step) + 1) * step);
  }
  return schedule.cron.nextRun(after);
}

/** Go's time.ParseDuration subset robfig/cron accepts; the interval is rounded down to seconds (at least 1 s). */
function parseEveryDuration(text: string): number {
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(text)) throw new Error(`failed to parse duration @every ${text}: invalid duration`);
  let ms = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) ms += Number(amount) * DURATION_UNITS_MS[unit!]!;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) throw new Error(`@every ${text}: the interval must be at least one second`);
  return seconds * 1000;
}
