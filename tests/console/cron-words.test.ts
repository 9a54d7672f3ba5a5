import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildCron, CHECK_INTERVALS, cronInWords, parseBuilderCron, type CronParts } from '../../src/console/cron-words.ts';
import { nextRun, wallClockInput } from '../../src/console/schedule-view.ts';
import { parseCron } from '../../src/server/lib/cron.ts';

const en = JSON.parse(readFileSync(new URL('../../locales/en/translation.json', import.meta.url), 'utf8')).schedules.words as Record<string, string>;
const de = JSON.parse(readFileSync(new URL('../../locales/de/translation.json', import.meta.url), 'utf8')).schedules.words as Record<string, string>;
const wordsOf = (messages: Record<string, string>) => (key: string, vars: Record<string, string | number> = {}) =>
  messages[key]!.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));
const words = (expr: string) => cronInWords(expr, wordsOf(en), 'en');
const parts = (p: Partial<CronParts>): CronParts => ({ mode: 'minute', minutes: [], hours: [], days: [], weekdays: [], months: [], ...p });

describe('cron in words', () => {
  it('says the usual expressions in English', () => {
    expect(words('* * * * *')).toBe('Every minute');
    expect(words('*/5 * * * *')).toBe('Every 5 minutes');
    expect(words('15 * * * *')).toBe('Every hour at :15');
    expect(words('0,30 * * * *')).toBe('Every hour at :00 and :30');
    expect(words('30 9 * * *')).toBe('At 09:30');
    expect(words('0 9,17 * * 1-5')).toBe('At 09:00 and 17:00, on Monday, Tuesday, Wednesday, Thursday, and Friday');
    expect(words('0 0 1,15 * *')).toBe('At 00:00, on day 1 and 15 of the month');
    expect(words('0 6 24 12 *')).toBe('At 06:00, on day 24 of the month, in December');
    expect(words('@daily')).toBe('At 00:00');
    expect(words('@hourly')).toBe('Every hour at :00');
    expect(words('0 0 * * 7')).toBe('At 00:00, on Sunday');
    expect(words('@every 90s')).toBe('Every 90s');
    expect(words('* 9 * * *')).toBe('Every minute during 09:00');
  });

  it('falls back to the expression itself when words cannot say it', () => {
    expect(words('0 */2 * * *')).toBe('0 */2 * * *');
    expect(words('0 9 * JAN *')).toBe('0 9 * JAN *');
    expect(words('nonsense')).toBe('nonsense');
    expect(words('')).toBe('');
  });

  it('uses the language for names and sentences', () => {
    expect(cronInWords('0 9 * * 1', wordsOf(de), 'de')).toBe('Um 09:00, am Montag');
    expect(cronInWords('0 9 1 3 *', wordsOf(de), 'de')).toBe('Um 09:00, am 1. Tag des Monats, im März');
  });
});

describe('cron builder', () => {
  it('builds each mode, minutes in steps of 5', () => {
    expect(buildCron(parts({ mode: 'minute' }))).toBe('* * * * *');
    expect(buildCron(parts({ mode: 'hourly', minutes: [30, 5] }))).toBe('5,30 * * * *');
    expect(buildCron(parts({ mode: 'daily', minutes: [0], hours: [9, 17] }))).toBe('0 9,17 * * *');
    expect(buildCron(parts({ mode: 'weekly', minutes: [0], hours: [9], weekdays: [1, 5] }))).toBe('0 9 * * 1,5');
    expect(buildCron(parts({ mode: 'monthly', minutes: [0], hours: [0], days: [1, 31] }))).toBe('0 0 1,31 * *');
    expect(buildCron(parts({ mode: 'yearly', minutes: [45], hours: [23], days: [24], months: [12] }))).toBe('45 23 24 12 *');
    // the lists of the other modes do not leak into a mode
    expect(buildCron(parts({ mode: 'daily', minutes: [0], hours: [1], days: [5], weekdays: [2], months: [3] }))).toBe('0 1 * * *');
  });

  it('reads back what it builds, and refuses what only raw cron can show', () => {
    for (const p of [parts({ mode: 'hourly', minutes: [5] }), parts({ mode: 'weekly', minutes: [0, 30], hours: [9], weekdays: [0, 6] }),
      parts({ mode: 'yearly', minutes: [55], hours: [0], days: [31], months: [1, 12] }), parts({ mode: 'monthly', minutes: [0], hours: [23], days: [15] })]) {
      expect(parseBuilderCron(buildCron(p))).toEqual(p);
    }
    expect(parseBuilderCron('* * * * *')?.mode).toBe('minute');
    expect(parseBuilderCron('7 * * * *')).toBeNull(); // not a step of 5
    expect(parseBuilderCron('*/5 * * * *')).toBeNull();
    expect(parseBuilderCron('0 9 1 * 1')).toBeNull();
    expect(parseBuilderCron('@daily')).toBeNull();
  });

  it('builds only cron the scheduler accepts, and the five check intervals', () => {
    for (const p of [parts({ mode: 'yearly', minutes: [0, 55], hours: [0, 23], days: [1, 31], months: [1, 12] }), parts({ mode: 'weekly', minutes: [0], hours: [0], weekdays: [0, 6] })]) {
      expect(() => parseCron(buildCron(p), 'UTC')).not.toThrow();
    }
    expect(CHECK_INTERVALS.map((i) => words(i.cron))).toEqual(['Every minute', 'Every 5 minutes', 'Every 10 minutes', 'Every hour at :00', 'At 00:00']);
  });
});

describe('next run in the schedule time zone', () => {
  const now = new Date('2026-07-01T10:15:00Z');
  it('follows the cron in the zone, one-shot times, and the switch', () => {
    expect(nextRun({ active: true, type: '', run_at: null, cron_format: '0 9 * * *' }, 'Europe/Berlin', now)?.toISOString()).toBe('2026-07-02T07:00:00.000Z');
    expect(nextRun({ active: false, type: '', run_at: null, cron_format: '* * * * *' }, 'UTC', now)).toBeNull();
    expect(nextRun({ active: true, type: 'run_at', run_at: '2026-07-01T11:00:00Z', cron_format: '' }, 'UTC', now)?.toISOString()).toBe('2026-07-01T11:00:00.000Z');
    expect(nextRun({ active: true, type: 'run_at', run_at: '2026-07-01T10:00:00Z', cron_format: '' }, 'UTC', now)).toBeNull();
    expect(nextRun({ active: true, type: '', run_at: null, cron_format: 'bad' }, 'UTC', now)).toBeNull();
  });
  it('shows a one-shot time as the zone\'s wall clock for the form', () => {
    expect(wallClockInput('2026-07-01T07:00:00Z', 'Europe/Berlin')).toBe('2026-07-01T09:00');
    expect(wallClockInput(null, 'UTC')).toBe('');
  });
});
