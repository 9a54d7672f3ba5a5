import { describe, expect, it } from 'vitest';
import { nextDue } from '../../../src/server/lib/cron.ts';
import { requireValidCron } from '../../../src/server/domain/schedules/schedule.service.ts';
import { ApiError } from '../../../src/server/http/errors.ts';

const at = (iso: string) => new Date(iso);

/** What the schedule routes rely on from the shared cron module, and the `Cron: ` errors they give. */
describe('schedule cron validation', () => {
  it.each(['* * * * *', '0 9 * * 1-5', '*/15 * * * *', '@yearly', '@monthly', '@weekly', '@daily', '@hourly', '@every 1h30m', '@every 90s'])(
    'accepts %j', (expr) => { expect(() => requireValidCron(expr, 'UTC')).not.toThrow(); },
  );

  it.each([
    ['', 'Cron: the cron format is required'],
    ['   ', 'Cron: the cron format is required'],
    ['* * * *', /^Cron: .*five/],
    ['0 0 * * * *', /^Cron: .*five fields .*found 6/],
    ['61 * * * *', /^Cron: .*minute/],
    ['@fortnightly', /^Cron: .*descriptor/],
    ['@every 10x', /^Cron: .*duration/],
    ['@every 500ms', /^Cron: .*one second/],
  ])('refuses %j with a 400 "Cron: <parser message>"', (expr, message) => {
    let error: unknown;
    try { requireValidCron(expr, 'UTC'); } catch (err) { error = err; }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    if (typeof message === 'string') expect((error as ApiError).message).toBe(message);
    else expect((error as ApiError).message).toMatch(message);
    expect((error as ApiError).message).not.toMatch(/CronPattern/);
  });

  it('refuses a time zone the parser does not know', () => {
    expect(() => requireValidCron('* * * * *', 'Mars/Olympus')).toThrow(/^Cron: /);
  });

  it('reads patterns in the schedule time zone and fires on either restricted day field, as standard cron does', () => {
    expect(nextDue('0 9 * * *', at('2026-11-22T00:00:00Z'), 'Europe/Berlin')).toEqual(at('2026-11-22T08:00:00Z'));
    expect(nextDue('0 0 1 * 5', at('2026-11-02T00:00:00Z'), 'UTC')).toEqual(at('2026-11-06T00:00:00Z'));
  });
});
