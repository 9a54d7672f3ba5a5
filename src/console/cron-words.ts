/**
 * Cron expressions for people (seed 001 §9): the builder's modes and choices, the cron a builder
 * state stands for, the builder state a cron can be shown as, and a cron "in words" in the
 * user's language. Pure and small: the schedule list renders words on the server, the cron
 * builder island shares the same code.
 */

export type CronMode = 'minute' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly';
export const CRON_MODES: readonly CronMode[] = ['minute', 'hourly', 'daily', 'weekly', 'monthly', 'yearly'];

/** What the builder can pick (seed 001 §9): minutes in steps of 5, hours, days, weekdays (0 = Sunday), months. */
export const MINUTE_CHOICES = Array.from({ length: 12 }, (_, i) => i * 5);
export const HOUR_CHOICES = Array.from({ length: 24 }, (_, i) => i);
export const DAY_CHOICES = Array.from({ length: 31 }, (_, i) => i + 1);
export const WEEKDAY_CHOICES = Array.from({ length: 7 }, (_, i) => i);
export const MONTH_CHOICES = Array.from({ length: 12 }, (_, i) => i + 1);

/** The check intervals of a commit-check schedule (seed 001 §9), as the cron each one stands for. */
export const CHECK_INTERVALS: readonly { cron: string; key: string }[] = [
  { cron: '* * * * *', key: 'interval1m' },
  { cron: '*/5 * * * *', key: 'interval5m' },
  { cron: '*/10 * * * *', key: 'interval10m' },
  { cron: '0 * * * *', key: 'interval1h' },
  { cron: '0 0 * * *', key: 'interval24h' },
];

/** The default cron of a new schedule: every minute. */
export const DEFAULT_CRON = '* * * * *';
/** What a new schedule starts with: daily at 03:00, a quiet hour, not every minute. */
export const NEW_SCHEDULE_CRON = '0 3 * * *';

export interface CronParts {
  mode: CronMode;
  minutes: number[];
  hours: number[];
  days: number[];
  weekdays: number[];
  months: number[];
}

const list = (values: number[]) => (values.length ? [...new Set(values)].sort((a, b) => a - b).join(',') : '*');

/**
 * The cron of a builder state; an empty choice stands for every value (`*`).
 * @example buildCron({ mode: 'daily', minutes: [30], hours: [9], days: [], weekdays: [], months: [] }) // '30 9 * * *'
 */
export function buildCron(parts: CronParts): string {
  const { mode } = parts;
  if (mode === 'minute') return DEFAULT_CRON;
  const minutes = list(parts.minutes);
  const hours = mode === 'hourly' ? '*' : list(parts.hours);
  const days = mode === 'monthly' || mode === 'yearly' ? list(parts.days) : '*';
  const months = mode === 'yearly' ? list(parts.months) : '*';
  const weekdays = mode === 'weekly' ? list(parts.weekdays) : '*';
  return `${minutes} ${hours} ${days} ${months} ${weekdays}`;
}

/** `*` → [], `1,5` → [1, 5] when every value is one of `allowed`; null otherwise. */
function choiceList(field: string, allowed: readonly number[]): number[] | null {
  if (field === '*') return [];
  if (!/^\d{1,2}(,\d{1,2})*$/.test(field)) return null;
  const values = field.split(',').map(Number);
  return values.every((v) => allowed.includes(v)) ? [...new Set(values)].sort((a, b) => a - b) : null;
}

/**
 * The builder state that shows `expr`, or null when only the raw cron text can show it.
 * @example parseBuilderCron('0,30 9 * * 1') // { mode: 'weekly', minutes: [0, 30], hours: [9], weekdays: [1], … }
 */
export function parseBuilderCron(expr: string): CronParts | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [m, h, d, mo, wd] = fields as [string, string, string, string, string];
  if (fields.every((f) => f === '*')) return { mode: 'minute', minutes: [], hours: [], days: [], weekdays: [], months: [] };
  const minutes = choiceList(m, MINUTE_CHOICES);
  const hours = choiceList(h, HOUR_CHOICES);
  const days = choiceList(d, DAY_CHOICES);
  const months = choiceList(mo, MONTH_CHOICES);
  const weekdays = choiceList(wd, WEEKDAY_CHOICES);
  if (!minutes?.length || !hours || !days || !months || !weekdays) return null;
  const parts = { minutes, hours, days, months, weekdays };
  let mode: CronMode;
  if (h === '*' && d === '*' && mo === '*' && wd === '*') mode = 'hourly';
  else if (d === '*' && mo === '*' && wd === '*') mode = 'daily';
  else if (d === '*' && mo === '*') mode = 'weekly';
  else if (mo === '*' && wd === '*') mode = 'monthly';
  else if (wd === '*') mode = 'yearly';
  else return null;
  return { mode, ...parts };
}

/** Translates a `schedules.words.*` key with its values (Astro.locals.t or the island's messages). */
export type Words = (key: string, vars?: Record<string, string | number>) => string;

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};

/** `pt_br` → `pt-BR`, the tag Intl understands. */
export function localeTag(lang: string): string {
  const [language, region] = lang.split('_');
  return region ? `${language}-${region.toUpperCase()}` : language ?? 'en';
}

/** A cron field as numbers: `*` → [], lists and ranges (`1-5`); null for steps or names. */
function numbers(field: string, min: number, max: number): number[] | null {
  if (field === '*') return [];
  const out: number[] = [];
  for (const piece of field.split(',')) {
    const range = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(piece);
    if (!range) return null;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from < min || to > max || from > to) return null;
    for (let v = from; v <= to; v++) out.push(v);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** `*\/n` → n, else null. */
function step(field: string): number | null {
  const match = /^\*\/(\d{1,2})$/.exec(field);
  return match && Number(match[1]) > 0 ? Number(match[1]) : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cron expression in words, in the user's language; the expression itself when it is beyond
 * the words (steps in hours or days, names, …).
 * @example cronInWords('30 9 * * 1,5', t, 'en') // 'At 09:30, on Monday and Friday'
 */
export function cronInWords(expr: string, words: Words, lang: string): string {
  const text = expr.trim();
  if (!text) return '';
  const every = /^@every\s+(\S+)$/.exec(text);
  if (every) return words('everyInterval', { interval: every[1]! });
  const fields = ((Object.hasOwn(DESCRIPTORS, text.toLowerCase()) ? DESCRIPTORS[text.toLowerCase()] : undefined) ?? text).split(/\s+/);
  if (fields.length !== 5) return text;
  const [m, h, d, mo, wd] = fields as [string, string, string, string, string];
  const tag = localeTag(lang);
  const join = (items: string[]) => new Intl.ListFormat(tag, { type: 'conjunction' }).format(items);
  const minuteStep = step(m);
  const minutes = numbers(m, 0, 59);
  const hours = numbers(h, 0, 23);
  const days = numbers(d, 1, 31);
  const months = numbers(mo, 1, 12);
  // 7 is Sunday too
  const weekdays = numbers(wd, 0, 7)?.map((v) => v % 7);
  if ((!minutes && !minuteStep) || !hours || !days || !months || !weekdays) return text;

  let time: string;
  if (minuteStep) time = hours.length ? words('everyNMinutesInHours', { n: minuteStep, hours: join(hours.map((x) => `${pad(x)}:00`)) }) : words('everyNMinutes', { n: minuteStep });
  else if (!minutes!.length) time = hours.length ? words('everyMinuteInHours', { hours: join(hours.map((x) => `${pad(x)}:00`)) }) : words('everyMinute');
  else if (!hours.length) time = words('hourlyAt', { minutes: join(minutes!.map((x) => `:${pad(x)}`)) });
  else time = words('at', { times: join(hours.flatMap((x) => minutes!.map((y) => `${pad(x)}:${pad(y)}`))) });

  const parts = [time];
  if (days.length) parts.push(words('onDays', { days: join(days.map(String)) }));
  if (weekdays.length) {
    const name = new Intl.DateTimeFormat(tag, { weekday: 'long', timeZone: 'UTC' });
    // 2023-01-01 was a Sunday
    parts.push(words('onWeekdays', { weekdays: join([...new Set(weekdays)].sort().map((v) => name.format(Date.UTC(2023, 0, 1 + v)))) }));
  }
  if (months.length) {
    const name = new Intl.DateTimeFormat(tag, { month: 'long', timeZone: 'UTC' });
    parts.push(words('inMonths', { months: join(months.map((v) => name.format(Date.UTC(2023, v - 1, 1)))) }));
  }
  return parts.join(', ');
}
