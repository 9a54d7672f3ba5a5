import { describe, expect, it } from 'vitest';
import { nextDue, parseCron } from '../../../src/server/lib/cron.ts';

describe('cron expressions', () => {
  it('computes the next due time of five-field expressions', () => {
    expect(nextDue('* * * * *', new Date('2026-01-01T00:00:30Z'), 'UTC')?.toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect(nextDue('*/15 9-17 * * 1-5', new Date('2026-01-02T17:50:00Z'), 'UTC')?.toISOString()).toBe('2026-01-05T09:00:00.000Z');
  });

  it('accepts the @ descriptors', () => {
    const after = new Date('2026-03-10T10:20:00Z');
    expect(nextDue('@hourly', after, 'UTC')?.toISOString()).toBe('2026-03-10T11:00:00.000Z');
    expect(nextDue('@daily', after, 'UTC')?.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(nextDue('@weekly', after, 'UTC')?.toISOString()).toBe('2026-03-15T00:00:00.000Z');
    expect(nextDue('@monthly', after, 'UTC')?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(nextDue('@yearly', after, 'UTC')?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('aligns @every intervals to the epoch so every process computes the same due times', () => {
    expect(nextDue('@every 1h30m', new Date('2026-01-01T00:10:00Z'), 'UTC')?.toISOString()).toBe('2026-01-01T01:30:00.000Z');
    expect(nextDue('@every 10s', new Date('2026-01-01T00:00:05Z'), 'UTC')?.toISOString()).toBe('2026-01-01T00:00:10.000Z');
  });

  it('reads times in the given time zone', () => {
    expect(nextDue('0 9 * * *', new Date('2026-07-01T00:00:00Z'), 'America/New_York')?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
  });

  it('rejects malformed expressions, seconds fields, short intervals and unknown zones with the parser message', () => {
    expect(() => parseCron('* * * *', 'UTC')).toThrow(/five/);
    expect(() => parseCron('61 * * * *', 'UTC')).toThrow(/minute/);
    expect(() => parseCron('*/5 * * * * *', 'UTC')).toThrow(/five fields \(minute hour day month weekday\), found 6/);
    expect(() => parseCron('@every 500ms', 'UTC')).toThrow(/at least one second/);
    expect(() => parseCron('@every soon', 'UTC')).toThrow(/duration/);
    expect(() => parseCron('@sometimes', 'UTC')).toThrow(/descriptor/);
    expect(() => parseCron('* * * * *', 'Mars/Olympus')).toThrow(/timezone/i);
  });
});

describe('run_at times', () => {
  it('reads instants as they are and zone-less times in the schedule time zone', async () => {
    const { parseScheduleTime } = await import('../../../src/server/lib/wall-clock.ts');
    expect(parseScheduleTime('2026-07-01T09:00:00+02:00', 'UTC')?.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(parseScheduleTime('2026-07-01T09:00:00Z', 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(parseScheduleTime('2026-07-01T09:00:00', 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(parseScheduleTime('2026-01-15 09:30', 'America/New_York')?.toISOString()).toBe('2026-01-15T14:30:00.000Z');
    expect(parseScheduleTime('2026-07-01T09:00:00', 'UTC')?.toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(parseScheduleTime('tomorrow', 'UTC')).toBeNull();
  });
});
