import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertSchedule, listTasks, openSecondDeps } from '../../support/trigger-fixtures.ts';
import { scheduleChanged, startScheduler, type Scheduler } from '../../../src/server/scheduler/scheduler.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds or the time is up; returns whether it held. */
async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(250);
  }
  return check();
}

describe('scheduler on the real clock (sqlite)', () => {
  let server: TestServer;
  let scheduler: Scheduler;
  let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
  beforeEach(async () => {
    server = await startTestServer('sqlite');
    fixture = await insertAdminProject(server);
    scheduler = startScheduler(server.deps, { log: () => {} });
    await scheduler.ready;
  });
  afterEach(async () => { await scheduler.stop(); await server.close(); });

  it('starts a task from a "* * * * *" schedule within 65 s of its creation', async () => {
    const schedule = await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id });
    await scheduleChanged(schedule.id);
    const started = await waitFor(async () => (await listTasks(server.deps.db, fixture.project.id)).length > 0, 65_000);
    expect(started).toBe(true);
    expect((await listTasks(server.deps.db, fixture.project.id))[0]!.schedule_id).toBe(schedule.id);
  }, 70_000);

  it('stops starting tasks once the schedule is disabled', async () => {
    const schedule = await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, cron_format: '@every 1s' });
    await scheduleChanged(schedule.id);
    expect(await waitFor(async () => (await listTasks(server.deps.db, fixture.project.id)).length >= 2, 5_000)).toBe(true);
    await server.deps.db.updateTable('schedule').set({ active: 0 }).where('id', '=', schedule.id).execute();
    await scheduleChanged(schedule.id);
    const count = (await listTasks(server.deps.db, fixture.project.id)).length;
    await sleep(2_500);
    expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(count);
  }, 15_000);
});

describe('scheduler when its database goes away (sqlite, real clock)', () => {
  it('logs and retries about once a second instead of crashing or spinning', async () => {
    const server = await startTestServer('sqlite');
    const other = openSecondDeps(server);
    const lines: string[] = [];
    try {
      const fixture = await insertAdminProject(server);
      await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, cron_format: '@every 1s' });
      const scheduler = startScheduler(other, { log: (line) => lines.push(line) });
      await scheduler.ready;
      await other.db.destroy();
      await sleep(2_500);
      await scheduler.stop();
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(5);
    } finally {
      await server.close();
    }
  }, 10_000);
});

describe.runIf(DIALECTS.includes('postgres'))('two scheduler processes on one PostgreSQL database (real clock)', () => {
  it('start exactly one task per firing', async () => {
    const server = await startTestServer('postgres');
    const other = openSecondDeps(server);
    const schedulers: Scheduler[] = [];
    try {
      const fixture = await insertAdminProject(server);
      await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, cron_format: '@every 1s' });
      schedulers.push(startScheduler(server.deps, { log: () => {} }), startScheduler(other, { log: () => {} }));
      await Promise.all(schedulers.map((s) => s.ready));
      await sleep(3_500);
      for (const s of schedulers.splice(0)) await s.stop();

      const tasks = await listTasks(server.deps.db, fixture.project.id);
      const firings = await server.deps.db.selectFrom('schedule_firing').selectAll().execute();
      expect(tasks.length).toBeGreaterThanOrEqual(2);
      expect(firings).toHaveLength(tasks.length);
      expect(new Set(firings.map((f) => f.task_id))).toEqual(new Set(tasks.map((t) => t.id)));
    } finally {
      for (const s of schedulers) await s.stop();
      await other.db.destroy();
      await server.close();
    }
  }, 20_000);
});
