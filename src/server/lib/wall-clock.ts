/**
 * Reads a date-time. With a zone designator (`Z`, `+02:00`) it is an instant; without one it is
 * a wall-clock time in `timezone` (the schedule time zone), converted to the instant it names.
 * Returns null for text that is not a date-time.
 * @example parseScheduleTime('2026-07-01T09:00:00', 'Europe/Berlin') // 2026-07-01T07:00:00.000Z
 */
export function parseScheduleTime(text: string, timezone: string): Date | null {
  const trimmed = text.trim();
  if (/(Z|[+-]\d\d:?\d\d)$/i.test(trimmed)) return validDate(new Date(trimmed));
  const match = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?$/.exec(trimmed);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '0'] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)));
  // The zone's offset at the guessed instant, then once more at the corrected one (DST edges).
  let instant = wall - offsetMs(wall, timezone);
  instant = wall - offsetMs(instant, timezone);
  return validDate(new Date(instant));
}

function offsetMs(instant: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

function validDate(date: Date): Date | null {
  return Number.isNaN(date.getTime()) ? null : date;
}
