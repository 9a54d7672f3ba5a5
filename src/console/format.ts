/**
 * Task duration as h:mm:ss or m:ss; '' when the task has not started.
 * @example formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:01:05Z') // '1:05'
 */
export function formatDuration(start: string | null | undefined, end: string | null | undefined, now = Date.now()): string {
  if (!start) return '';
  const from = Date.parse(start);
  const to = end ? Date.parse(end) : now;
  if (Number.isNaN(from) || Number.isNaN(to)) return '';
  let seconds = Math.max(0, Math.round((to - from) / 1000));
  const h = Math.floor(seconds / 3600);
  seconds -= h * 3600;
  const m = Math.floor(seconds / 60);
  const s = String(seconds - m * 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A date-time in the user's language, rendered on the server in UTC so pages are reproducible.
 * @example formatTime('2026-11-22T13:00:00Z', 'de')
 */
export function formatTime(value: string | null | undefined, lang: string): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return dateTimeFormat(lang).format(date);
}

// Building an Intl.DateTimeFormat costs far more than formatting with one (it dominated the
// history page's render time), so there is one per language.
const FORMATS = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(lang: string): Intl.DateTimeFormat {
  let format = FORMATS.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang.replace('_', '-'), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    FORMATS.set(lang, format);
  }
  return format;
}
