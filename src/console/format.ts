/** Words of a duration in the user's language: the `duration` section of the locale files. */
export interface DurationUnits { h: string; min: string; s: string }

/**
 * Seconds between start and end (or now, while running); null when the task has not started.
 * @example durationSeconds('2026-01-01T00:00:00Z', '2026-01-01T00:01:05Z') // 65
 */
export function durationSeconds(start: string | null | undefined, end: string | null | undefined, now = Date.now()): number | null {
  if (!start) return null;
  const from = Date.parse(start);
  const to = end ? Date.parse(end) : now;
  if (Number.isNaN(from) || Number.isNaN(to)) return null;
  return Math.max(0, Math.round((to - from) / 1000));
}

/**
 * A task's duration in at most two units ("1 s", "2 min 5 s", "1 h 2 min"); '' before it starts.
 * The units are the reader's words (durationUnits(t)): there is no English default to forget them for.
 * @example formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:01:05Z', units) // '1 min 5 s'
 */
export function formatDuration(start: string | null | undefined, end: string | null | undefined, units: DurationUnits, now = Date.now()): string {
  const total = durationSeconds(start, end, now);
  return total === null ? '' : formatSeconds(total, units);
}

/** @example formatSeconds(3720, units) // '1 h 2 min' */
export function formatSeconds(total: number, units: DurationUnits): string {
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return min ? `${h} ${units.h} ${min} ${units.min}` : `${h} ${units.h}`;
  if (min) return s ? `${min} ${units.min} ${s} ${units.s}` : `${min} ${units.min}`;
  return `${s} ${units.s}`;
}

/**
 * A date-time in the user's language, rendered on the server in UTC so pages are reproducible.
 * @example formatTime('2026-11-22T13:00:00Z', 'de')
 */
export function formatTime(value: string | null | undefined, lang: string): string {
  const date = parseDate(value);
  return date ? formatDate(lang, 'dateTime', date) : '—';
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 45], ['minute', 45 * 60], ['hour', 22 * 3600], ['day', 26 * 86400], ['month', 320 * 86400], ['year', Infinity],
];
const UNIT_SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, month: 30 * 86400, year: 365 * 86400 };

/**
 * "5 minutes ago (13:43)" in the user's language: the clock time alone when it is today (UTC),
 * otherwise the date too.
 * @example relativeTimeText('2026-11-23T13:43:00Z', 'en', Date.parse('2026-11-23T13:48:00Z')) // '5 minutes ago (1:43 PM)'
 */
export function relativeTimeText(value: string | null | undefined, lang: string, now = Date.now()): string {
  const parts = relativeTimeParts(value, lang, now);
  return parts ? `${parts[0]} (${parts[1]})` : '—';
}

/**
 * The two halves of relativeTimeText: how long ago, and the clock time (or date and time).
 * Shared by the server render and the browser refresh.
 * @example relativeTimeParts('2026-11-23T13:43:00Z', 'en', Date.parse('2026-11-23T13:48:00Z')) // ['5 minutes ago', '1:43 PM']
 */
export function relativeTimeParts(value: string | null | undefined, lang: string, now = Date.now()): [string, string] | null {
  const date = parseDate(value);
  if (!date) return null;
  const seconds = Math.round((date.getTime() - now) / 1000);
  const [unit] = RELATIVE_STEPS.find(([, limit]) => Math.abs(seconds) < limit)!;
  const count = unit === 'second' ? 0 : Math.round(seconds / UNIT_SECONDS[unit]!);
  const relative = keptText(`${lang}/${count}/${unit}`, () => cachedRelative(lang).format(count, unit));
  const sameDay = new Date(now).toISOString().slice(0, 10) === date.toISOString().slice(0, 10);
  return [relative, formatDate(lang, sameDay ? 'time' : 'dateTime', date)];
}

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

// Building an Intl formatter costs far more than formatting with one (it dominated the history
// page's render time), so there is one per language and kind.
const FORMATS = new Map<string, Intl.DateTimeFormat>();
const RELATIVE = new Map<string, Intl.RelativeTimeFormat>();
const STYLES = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  time: { timeStyle: 'short' },
} as const;

// Formatting itself still costs more than looking the text up: a page shows the same task times
// on every refresh (three texts a row of the history), so texts are kept too, a bounded number:
// fewer in a browser, where a wall board stays open for weeks and shows at most 200 tiles.
const TEXTS = new Map<string, string>();
const TEXTS_KEPT = typeof document === 'undefined' ? 5000 : 1000;

function keptText(key: string, make: () => string): string {
  let text = TEXTS.get(key);
  if (text === undefined) {
    text = make();
    if (TEXTS.size >= TEXTS_KEPT) TEXTS.clear();
    TEXTS.set(key, text);
  }
  return text;
}

function formatDate(lang: string, kind: keyof typeof STYLES, date: Date): string {
  return keptText(`${lang}/${kind}/${date.getTime()}`, () => cachedFormat(lang, kind).format(date));
}

function cachedFormat(lang: string, kind: keyof typeof STYLES): Intl.DateTimeFormat {
  const key = `${lang}/${kind}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang.replace('_', '-'), { ...STYLES[kind], timeZone: 'UTC' });
    FORMATS.set(key, format);
  }
  return format;
}

function cachedRelative(lang: string): Intl.RelativeTimeFormat {
  let format = RELATIVE.get(lang);
  if (!format) {
    format = new Intl.RelativeTimeFormat(lang.replace('_', '-'), { numeric: 'auto' });
    RELATIVE.set(lang, format);
  }
  return format;
}
