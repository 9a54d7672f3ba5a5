import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertSchedule, listTasks, manualClock, openSecondDeps } from '../../support/trigger-fixtures.ts';
import { startScheduler, scheduleChanged, reloadSchedules, type Scheduler } from '../../../src/server/scheduler/scheduler.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`scheduler (${dialect})`, () => {
    let server: TestServer;
    let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
    const schedulers: Scheduler[] = [];
    const quiet = () => {};

    beforeEach(async () => {
      server = await startTestServer(dialect);
      fixture = await insertAdminProject(server);
    });
    afterEach(async () => {
      for (const s of schedulers.splice(0)) await s.stop();
      await server.close();
    });

    async function start(clock: ReturnType<typeof manualClock>, deps = server.deps) {
      const scheduler = startScheduler(deps, { now: clock.now, autoTick: false, log: quiet });
      schedulers.push(scheduler);
      await scheduler.ready;
      return scheduler;
    }
    const scheduleOf = (values: Parameters<typeof insertSchedule>[1] extends infer V ? Partial<V> : never) =>
      insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, ...values });

    it('queues a waiting task with schedule_id, no user and the task_params at each due time', async () => {
      await server.deps.db.updateTable('template').set({ task_params: '{"allow_override_limit":true}' }).where('id', '=', fixture.template.id).execute();
      const schedule = await scheduleOf({ task_params: '{"debug":true,"limit":"web"}' });
      const clock = manualClock('2026-01-01T00:00:30Z');
      const scheduler = await start(clock);
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(0);

      clock.set('2026-01-01T00:01:00Z');
      await scheduler.tick();
      await scheduler.tick();
      const tasks = await listTasks(server.deps.db, fixture.project.id);
      expect(tasks).toHaveLength(1);
      expect(tasks[0]).toMatchObject({ status: 'waiting', schedule_id: schedule.id, user_id: null, integration_id: null, template_id: fixture.template.id });
      expect(JSON.parse(tasks[0]!.params)).toEqual({ debug: true, limit: ['web'] });

      clock.set('2026-01-01T00:02:00.500Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(2);
      await settleAuditInbox(server.deps.db);
      const events = await server.deps.db.selectFrom('event').select('description').where('object_type', '=', 'schedule').execute();
      expect(events.map((e) => e.description)).toContain(`Schedule ID ${schedule.id} started Task ID ${tasks[0]!.id}`);
    });

    it('never fires an inactive schedule', async () => {
      await scheduleOf({ active: 0 });
      const clock = manualClock('2026-01-01T00:00:30Z');
      const scheduler = await start(clock);
      clock.set('2026-01-01T00:03:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(0);
    });

    it('stops firing once disabled and resumes when enabled again, without a restart', async () => {
      const schedule = await scheduleOf({});
      const clock = manualClock('2026-01-01T00:00:30Z');
      const scheduler = await start(clock);
      clock.set('2026-01-01T00:01:00Z');
      await scheduler.tick();

      await server.deps.db.updateTable('schedule').set({ active: 0 }).where('id', '=', schedule.id).execute();
      await scheduleChanged(schedule.id);
      clock.set('2026-01-01T00:02:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(1);

      await server.deps.db.updateTable('schedule').set({ active: 1 }).where('id', '=', schedule.id).execute();
      await scheduleChanged(schedule.id);
      clock.set('2026-01-01T00:03:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(2);
    });

    it('does not fire a schedule disabled in the database even before it is told (re-reads the row)', async () => {
      const schedule = await scheduleOf({});
      const clock = manualClock('2026-01-01T00:00:30Z');
      const scheduler = await start(clock);
      await server.deps.db.updateTable('schedule').set({ active: 0 }).where('id', '=', schedule.id).execute();
      clock.set('2026-01-01T00:01:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(0);
    });

    it('applies a changed cron expression and picks up new and deleted schedules', async () => {
      const schedule = await scheduleOf({});
      const clock = manualClock('2026-01-01T00:00:30Z');
      const scheduler = await start(clock);
      await server.deps.db.updateTable('schedule').set({ cron_format: '0 * * * *' }).where('id', '=', schedule.id).execute();
      await scheduleChanged(schedule.id);
      clock.set('2026-01-01T00:01:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(0);
      clock.set('2026-01-01T01:00:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(1);

      await server.deps.db.deleteFrom('schedule').where('id', '=', schedule.id).execute();
      const added = await scheduleOf({ cron_format: '30 1 * * *' });
      await reloadSchedules();
      clock.set('2026-01-01T01:30:00Z');
      await scheduler.tick();
      const tasks = await listTasks(server.deps.db, fixture.project.id);
      expect(tasks.map((t) => t.schedule_id)).toEqual([schedule.id, added.id]);
    });

    it('finds a schedule created behind its back on the periodic rescan', async () => {
      const clock = manualClock('2026-01-01T00:00:10Z');
      const scheduler = await start(clock);
      await scheduleOf({});
      clock.set('2026-01-01T00:00:45Z'); // past the 30 s rescan
      await scheduler.tick();
      clock.set('2026-01-01T00:01:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(1);
    });

    it('does not replay missed firings: a stall fires once, a restart waits for the next due time', async () => {
      await scheduleOf({});
      const clock = manualClock('2026-01-01T00:00:30Z');
      const first = await start(clock);
      clock.set('2026-01-01T00:05:30Z');
      await first.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(1);
      await first.stop();

      clock.set('2026-01-01T00:10:30Z');
      const restarted = await start(clock);
      await restarted.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(1);
      clock.set('2026-01-01T00:11:00Z');
      await restarted.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(2);
    });

    it('fires a run_at schedule once at run_at, then deactivates it', async () => {
      const schedule = await scheduleOf({ type: 'run_at', cron_format: '', run_at: '2026-01-01T00:10:00.000Z' });
      const clock = manualClock('2026-01-01T00:00:00Z');
      const scheduler = await start(clock);
      clock.set('2026-01-01T00:09:59Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(0);
      clock.set('2026-01-01T00:10:00Z');
      await scheduler.tick();
      clock.set('2026-01-01T00:20:00Z');
      await scheduler.tick();
      await reloadSchedules();
      await scheduler.tick();
      const tasks = await listTasks(server.deps.db, fixture.project.id);
      expect(tasks).toHaveLength(1);
      expect(tasks[0]!.schedule_id).toBe(schedule.id);
      const row = await server.deps.db.selectFrom('schedule').select('active').where('id', '=', schedule.id).executeTakeFirstOrThrow();
      expect(row.active).toBe(0);
    });

    it('does not run a run_at schedule whose time passed before the scheduler started', async () => {
      await scheduleOf({ type: 'run_at', cron_format: '', run_at: '2026-01-01T00:00:00.000Z' });
      const clock = manualClock('2026-01-01T00:05:00Z');
      const scheduler = await start(clock);
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(0);
    });

    // Several server processes share a PostgreSQL database; two SQLite connections in one process would block each other instead.
    it.runIf(dialect === 'postgres')('starts exactly one task per firing when two server processes share the database', async () => {
      await scheduleOf({});
      const other = openSecondDeps(server);
      try {
        const clock = manualClock('2026-01-01T00:00:30Z');
        const a = await start(clock);
        const b = await start(clock, other);
        for (const minute of ['01', '02', '03']) {
          clock.set(`2026-01-01T00:${minute}:00Z`);
          await Promise.all([a.tick(), b.tick()]);
        }
        const tasks = await listTasks(server.deps.db, fixture.project.id);
        expect(tasks).toHaveLength(3);
        const firings = await server.deps.db.selectFrom('schedule_firing').selectAll().orderBy('due_at').execute();
        expect(firings.map((f) => [f.due_at, f.task_id])).toEqual([
          ['2026-01-01T00:01:00.000Z', tasks[0]!.id], ['2026-01-01T00:02:00.000Z', tasks[1]!.id], ['2026-01-01T00:03:00.000Z', tasks[2]!.id],
        ]);
      } finally {
        for (const s of schedulers.splice(0)) await s.stop();
        await other.db.destroy();
      }
    });
  });
}

describe('scheduler time zone', () => {
  it('reads cron times in the configured schedule time zone', async () => {
    const server = await startTestServer('sqlite', { SEMAPHORE_SCHEDULE_TIMEZONE: 'Europe/Berlin' });
    try {
      const fixture = await insertAdminProject(server);
      await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, cron_format: '0 9 * * *' });
      const clock = manualClock('2026-01-01T07:30:00Z');
      const scheduler = startScheduler(server.deps, { now: clock.now, autoTick: false, log: () => {} });
      await scheduler.ready;
      clock.set('2026-01-01T08:00:00Z'); // 09:00 in Berlin (CET, UTC+1)
      await scheduler.tick();
      await scheduler.stop();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
