import { describe, expect, it } from 'vitest';
import { CronError, nextDue, parseCron } from '../../../src/server/scheduler/cron.ts';

const at = (iso: string) => new Date(iso);

describe('cron expressions', () => {
  it('computes the next due time of a 5-field pattern after a given time', () => {
    expect(nextDue('*/15 * * * *', at('2026-11-22T10:07:30Z'), 'UTC')).toEqual(at('2026-11-22T10:15:00Z'));
    expect(nextDue('0 9 * * 1-5', at('2026-11-21T12:00:00Z'), 'UTC')).toEqual(at('2026-11-23T09:00:00Z'));
  });

  it('is strictly after the reference time', () => {
    expect(nextDue('0 * * * *', at('2026-11-22T10:00:00Z'), 'UTC')).toEqual(at('2026-11-22T11:00:00Z'));
  });

  it('reads the pattern in the schedule time zone', () => {
    expect(nextDue('0 9 * * *', at('2026-11-22T00:00:00Z'), 'Europe/Berlin')).toEqual(at('2026-11-22T08:00:00Z'));
    expect(nextDue('0 9 * * *', at('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toEqual(at('2026-07-01T07:00:00Z'));
  });

  it('fires on either day field when both day-of-month and day-of-week are restricted, as standard cron does', () => {
    expect(nextDue('0 0 1 * 5', at('2026-11-02T00:00:00Z'), 'UTC')).toEqual(at('2026-11-06T00:00:00Z'));
  });

  it('understands the @-descriptors', () => {
    const from = at('2026-11-22T10:30:00Z');
    expect(nextDue('@hourly', from, 'UTC')).toEqual(at('2026-11-22T11:00:00Z'));
    expect(nextDue('@daily', from, 'UTC')).toEqual(at('2026-11-23T00:00:00Z'));
    expect(nextDue('@weekly', from, 'UTC')).toEqual(at('2026-11-29T00:00:00Z'));
    expect(nextDue('@monthly', from, 'UTC')).toEqual(at('2026-12-01T00:00:00Z'));
    expect(nextDue('@yearly', from, 'UTC')).toEqual(at('2027-01-01T00:00:00Z'));
  });

  it('treats @every <duration> as a fixed interval after the previous due time', () => {
    expect(nextDue('@every 1h30m', at('2026-11-22T10:00:00Z'), 'UTC')).toEqual(at('2026-11-22T11:30:00Z'));
    expect(parseCron('@every 90s', 'UTC')).toMatchObject({ kind: 'every', intervalMs: 90_000 });
  });

  it('accepts a parsed expression so callers parse once', () => {
    const parsed = parseCron('30 2 * * *', 'UTC');
    expect(nextDue(parsed, at('2026-11-22T00:00:00Z'), 'UTC')).toEqual(at('2026-11-22T02:30:00Z'));
  });

  it.each([
    ['', /empty/],
    ['* * * *', /exactly 5 fields/],
    ['0 0 * * * *', /exactly 5 fields/],
    ['61 * * * *', /minute/],
    ['@fortnightly', /unrecognized descriptor/],
    ['@every', /duration/],
    ['@every 10x', /duration/],
    ['@every 500ms', /at least 1s/],
  ])('refuses %j with a CronError', (expr, message) => {
    expect(() => parseCron(expr, 'UTC')).toThrow(CronError);
    expect(() => parseCron(expr, 'UTC')).toThrow(message);
  });
});
