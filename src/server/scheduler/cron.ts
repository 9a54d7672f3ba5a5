import { Cron } from 'croner';

/** A cron expression that cannot be parsed; `message` is what `Cron: <message>` shows. */
export class CronError extends Error {}

/** A parsed schedule expression: a cron pattern or a fixed `@every` interval. */
export type ParsedCron =
  | { kind: 'pattern'; expression: string; timezone: string; cron: Cron }
  | { kind: 'every'; expression: string; intervalMs: number };

/** Descriptors of robfig/cron's standard parser, written as the 5-field patterns they mean. */
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a schedule's `cron_format`: five fields `minute hour day-of-month month day-of-week`,
 * an @-descriptor (@yearly @monthly @weekly @daily @hourly) or `@every <Go duration>` such as
 * `@every 1h30m`. Throws CronError with a readable message otherwise.
 * @example parseCron('*\/5 * * * *', 'UTC'); parseCron('@every 90s', 'Europe/Berlin');
 */
export function parseCron(expression: string, timezone: string): ParsedCron {
  const expr = expression.trim();
  if (!expr) throw new CronError('empty spec string');
  if (expr.startsWith('@every')) {
    const intervalMs = parseGoDuration(expr.slice('@every'.length).trim());
    return { kind: 'every', expression: expr, intervalMs };
  }
  let pattern = expr;
  if (expr.startsWith('@')) {
    const known = DESCRIPTORS[expr.toLowerCase()];
    if (!known) throw new CronError(`unrecognized descriptor: ${expr}`);
    pattern = known;
  } else if (expr.split(/\s+/).length !== 5) {
    throw new CronError(`expected exactly 5 fields, found ${expr.split(/\s+/).length}: [${expr}]`);
  }
  try {
    const cron = new Cron(pattern, { timezone, paused: true, mode: '5-part' });
    return { kind: 'pattern', expression: expr, timezone, cron };
  } catch (err) {
    throw new CronError(String((err as Error).message).replace(/^CronPattern: /, ''));
  }
}

/**
 * The first time the schedule is due strictly after `after`, or null when it never is again.
 * `@every d` is due at `after + d` (the caller passes the previous due time).
 * @example nextDue('0 9 * * 1-5', new Date(), 'UTC') // next weekday 09:00 UTC
 */
export function nextDue(expression: string | ParsedCron, after: Date, timezone: string): Date | null {
  const parsed = typeof expression === 'string' ? parseCron(expression, timezone) : expression;
  if (parsed.kind === 'every') return new Date(after.getTime() + parsed.intervalMs);
  return parsed.cron.nextRun(after);
}

/** Reads a Go duration (`1h30m`, `90s`, `1.5h`); it must come to at least one second. */
function parseGoDuration(text: string): number {
  if (!text) throw new CronError('failed to parse duration @every : missing duration');
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = part.exec(text)) !== null) {
    total += Number(match[1]) * DURATION_UNITS[match[2]!]!;
    consumed = part.lastIndex;
  }
  if (consumed !== text.length) throw new CronError(`failed to parse duration @every ${text}: invalid duration "${text}"`);
  if (total < 1000) throw new CronError(`@every ${text}: the interval must be at least 1s`);
  return Math.round(total);
}
