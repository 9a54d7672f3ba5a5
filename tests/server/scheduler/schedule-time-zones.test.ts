// Issue #34 item 4: each schedule may carry its own IANA time zone. The API stores it in its
// canonical spelling and refuses unknown names; the scheduler reads the cron in that zone, and a
// daylight-saving change fires a daily job once: never twice (the repeated hour in autumn) and
// never zero times (the skipped hour in spring). Checked at both transitions of Europe/Berlin and
// America/New_York, with the server's own zone elsewhere (Asia/Tokyo, which has no DST).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertSchedule, listTasks, manualClock } from '../../support/trigger-fixtures.ts';
import { startScheduler, type Scheduler } from '../../../src/server/scheduler/scheduler.ts';

const SERVER_ZONE = 'Asia/Tokyo';

for (const dialect of DIALECTS) {
  describe(`schedule time zones (${dialect})`, () => {
    let server: TestServer;
    let admin: Auth;
    let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
    let scheduler: Scheduler | undefined;

    beforeEach(async () => {
      server = await startTestServer(dialect, { SEMAPHORE_SCHEDULE_TIMEZONE: SERVER_ZONE });
      admin = await server.login(ADMIN.login, ADMIN.password);
      fixture = await insertAdminProject(server);
    });
    afterEach(async () => {
      await scheduler?.stop();
      scheduler = undefined;
      await server.close();
    });

    const path = () => `/api/project/${fixture.project.id}/schedules`;
    const body = (extra: Record<string, unknown>) => ({ name: 'Nightly', template_id: fixture.template.id, cron_format: '30 2 * * *', ...extra });

    it('stores a zone in its canonical spelling, returns it, and keeps the server zone when none is given', async () => {
      const own = await server.call('POST', path(), body({ timezone: 'europe/berlin' }), admin);
      expect(own.status).toBe(201);
      expect(own.body.timezone).toBe('Europe/Berlin');
      const plain = await server.call('POST', path(), body({ name: 'Plain' }), admin);
      expect(plain.body.timezone).toBe('');
      const row = await server.deps.db.selectFrom('schedule').select('timezone').where('id', '=', own.body.id).executeTakeFirstOrThrow();
      expect(row.timezone).toBe('Europe/Berlin');

      // a PUT without the field keeps the zone; an empty one goes back to the server's
      expect((await server.call('PUT', `${path()}/${own.body.id}`, { name: 'Renamed' }, admin)).status).toBe(204);
      expect((await server.call('GET', `${path()}/${own.body.id}`, undefined, admin)).body.timezone).toBe('Europe/Berlin');
      expect((await server.call('PUT', `${path()}/${own.body.id}`, { timezone: '' }, admin)).status).toBe(204);
      expect((await server.call('GET', `${path()}/${own.body.id}`, undefined, admin)).body.timezone).toBe('');
    });

    it('refuses a zone it does not know with a 400 that names it, and writes nothing', async () => {
      for (const zone of ['Mars/Olympus_Mons', '../../etc/passwd', 'x'.repeat(65), '__proto__']) {
        const res = await server.call('POST', path(), body({ timezone: zone }), admin);
        expect(res.status).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      expect(await server.deps.db.selectFrom('schedule').select('id').execute()).toEqual([]);
      const check = await server.call('POST', `${path()}/validate`, { cron_format: '0 9 * * *', timezone: 'America/New_York' }, admin);
      expect(check.status).toBe(200);
    });

    it('reads a one-shot time without a zone in the schedule\'s own zone', async () => {
      const res = await server.call('POST', path(), { name: 'Once', template_id: fixture.template.id, type: 'run_at', run_at: '2099-07-01T09:00', timezone: 'Europe/Berlin' }, admin);
      expect(res.status).toBe(201);
      expect(res.body.run_at).toBe('2099-07-01T07:00:00.000Z');
    });

    it('a backup carries the zone and a restore keeps it; a restore with an unknown zone is refused whole', async () => {
      expect((await server.call('POST', path(), body({ timezone: 'America/New_York' }), admin)).status).toBe(201);
      const backup = (await server.call('GET', `/api/project/${fixture.project.id}/backup`, undefined, admin)).body;
      expect(backup.schedules).toEqual([expect.objectContaining({ name: 'Nightly', timezone: 'America/New_York' })]);
      const restored = await server.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: 'Zoned copy' } }, admin);
      expect(restored.status).toBe(200);
      const rows = await server.deps.db.selectFrom('schedule').select('timezone').where('project_id', '=', restored.body.id).execute();
      expect(rows).toEqual([{ timezone: 'America/New_York' }]);

      const bad = { ...backup, meta: { ...backup.meta, name: 'Bad zone' }, schedules: [{ ...backup.schedules[0], timezone: 'Nowhere/Land' }] };
      const refused = await server.call('POST', '/api/projects/restore', bad, admin);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('Nowhere/Land');
      expect(await server.deps.db.selectFrom('project').select('id').where('name', '=', 'Bad zone').execute()).toEqual([]);
    });

    /** Runs the scheduler over `hours` hours from `start` in 5-minute steps; returns when it queued tasks. */
    async function firingsOver(zone: string, cron: string, start: string, hours: number): Promise<string[]> {
      const schedule = await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, cron_format: cron, timezone: zone });
      const clock = manualClock(start);
      scheduler = startScheduler(server.deps, { now: clock.now, autoTick: false, log: () => {} });
      await scheduler.ready;
      const fired: string[] = [];
      for (let t = new Date(start).getTime(); t <= new Date(start).getTime() + hours * 3_600_000; t += 5 * 60_000) {
        clock.set(new Date(t).toISOString());
        const before = (await listTasks(server.deps.db, fixture.project.id)).length;
        await scheduler.tick();
        if ((await listTasks(server.deps.db, fixture.project.id)).length > before) fired.push(new Date(t).toISOString());
      }
      const tasks = await listTasks(server.deps.db, fixture.project.id);
      expect(tasks.map((task) => task.schedule_id)).toEqual(fired.map(() => schedule.id));
      return fired;
    }

    it('Europe/Berlin, spring forward (29 March 2026): 02:30 does not exist, the job runs once, at 03:00 CEST', async () => {
      expect(await firingsOver('Europe/Berlin', '30 2 * * *', '2026-03-28T22:00:00Z', 6)).toEqual(['2026-03-29T01:00:00.000Z']);
    });

    it('Europe/Berlin, fall back (25 October 2026): 02:30 happens twice, the job runs once', async () => {
      expect(await firingsOver('Europe/Berlin', '30 2 * * *', '2026-10-24T22:00:00Z', 6)).toEqual(['2026-10-25T00:30:00.000Z']);
    });

    it('America/New_York, spring forward (8 March 2026): 02:30 does not exist, the job runs once, at 03:00 EDT', async () => {
      expect(await firingsOver('America/New_York', '30 2 * * *', '2026-03-08T04:00:00Z', 6)).toEqual(['2026-03-08T07:00:00.000Z']);
    });

    it('America/New_York, fall back (1 November 2026): 01:30 happens twice, the job runs once', async () => {
      expect(await firingsOver('America/New_York', '30 1 * * *', '2026-11-01T03:00:00Z', 6)).toEqual(['2026-11-01T05:30:00.000Z']);
    });

    it('a 09:00 job follows the zone\'s clock across the change: one day apart in local time, 23 or 25 hours in UTC', async () => {
      const fired = await firingsOver('America/New_York', '0 9 * * *', '2026-03-07T12:00:00Z', 48);
      expect(fired).toEqual(['2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
    });
  });
}
