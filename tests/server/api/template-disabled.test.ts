// Issue #34 item 2: a disabled template cannot be run by anyone. The API refuses a task (by id
// and by template name) with a 400 naming it; a schedule skips it with a log line; a webhook's
// delivery log says why nothing started; a deploy with autorun after its build is not queued.
// Enabling it again makes every starter work as before.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertIntegration, insertSchedule, listTasks, manualClock } from '../../support/trigger-fixtures.ts';
import { startScheduler } from '../../../src/server/scheduler/scheduler.ts';
import { autorunDeploys } from '../../../src/server/engine/queue/autorun-deploys.ts';

for (const dialect of DIALECTS) {
  describe(`disabled templates (${dialect})`, () => {
    let server: TestServer;
    let admin: Auth;
    let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
    const tpl = () => `/api/project/${fixture.project.id}/templates/${fixture.template.id}`;
    const tasks = () => listTasks(server.deps.db, fixture.project.id);

    beforeEach(async () => {
      server = await startTestServer(dialect);
      admin = await server.login(ADMIN.login, ADMIN.password);
      fixture = await insertAdminProject(server);
    });
    afterEach(async () => { await server.close(); });

    async function setDisabled(disabled: boolean) {
      const current = (await server.call('GET', tpl(), undefined, admin)).body;
      expect((await server.call('PUT', tpl(), { ...current, disabled }, admin)).status).toBe(204);
      expect((await server.call('GET', tpl(), undefined, admin)).body.disabled).toBe(disabled);
    }

    it('is off by default, and the API refuses its tasks by id and by name until it is enabled again', async () => {
      expect((await server.call('GET', tpl(), undefined, admin)).body.disabled).toBe(false);
      await setDisabled(true);
      const list = await server.call('GET', `/api/project/${fixture.project.id}/templates`, undefined, admin);
      expect(list.body.find((t: { id: number }) => t.id === fixture.template.id).disabled).toBe(true);

      const byId = await server.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_id: fixture.template.id }, admin);
      expect(byId.status).toBe(400);
      expect(byId.body.error).toBe(`Template "${fixture.template.name}" is disabled`);
      const byName = await server.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_name: fixture.template.name }, admin);
      expect(byName.status).toBe(400);
      expect(await tasks()).toEqual([]);

      await setDisabled(false);
      expect((await server.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_id: fixture.template.id }, admin)).status).toBe(201);
      expect(await tasks()).toHaveLength(1);
    });

    it('a schedule skips it and records why on the schedule', async () => {
      await setDisabled(true);
      const schedule = await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id });
      const lines: string[] = [];
      const clock = manualClock('2026-01-01T00:00:30Z');
      const scheduler = startScheduler(server.deps, { now: clock.now, autoTick: false, log: (line) => lines.push(line) });
      try {
        await scheduler.ready;
        clock.set('2026-01-01T00:01:00Z');
        await scheduler.tick();
        expect(await tasks()).toEqual([]);
        const shown = await server.call('GET', `/api/project/${fixture.project.id}/schedules/${schedule.id}`, undefined, admin);
        expect(shown.body.last_error).toBe(`Template "${fixture.template.name}" is disabled`);
        expect(lines).toEqual([]);
      } finally {
        await scheduler.stop();
      }
    });

    it('a webhook delivery starts nothing and its log says the template is disabled', async () => {
      await setDisabled(true);
      const { integration, alias } = await insertIntegration(server, fixture.project.id, fixture.template.id);
      await server.api.request(`/api/integrations/${alias}`, { method: 'POST', body: '{}' });
      let deliveries: { reason: string; task_id: number | null }[] = [];
      for (let i = 0; i < 100 && deliveries.length === 0; i++) {
        deliveries = (await server.call('GET', `/api/project/${fixture.project.id}/integrations/${integration.id}/deliveries`, undefined, admin)).body;
        if (deliveries.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(deliveries).toEqual([expect.objectContaining({ task_id: null, reason: `failed to start task: Template "${fixture.template.name}" is disabled` })]);
      expect(await tasks()).toEqual([]);
    });

    it('a disabled deploy is not queued after its build succeeds', async () => {
      const build = await server.call('POST', `/api/project/${fixture.project.id}/templates`, {
        ...(await server.call('GET', tpl(), undefined, admin)).body, id: undefined, name: 'Build', type: 'build', start_version: '1.0.0',
      }, admin);
      expect(build.status).toBe(201);
      const deploy = (await server.call('GET', tpl(), undefined, admin)).body;
      expect((await server.call('PUT', tpl(), { ...deploy, type: 'deploy', build_template_id: build.body.id, autorun: true, disabled: true }, admin)).status).toBe(204);
      const started = await server.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_id: build.body.id }, admin);
      const buildTask = await server.deps.db.updateTable('task').set({ status: 'success' }).where('id', '=', started.body.id).returningAll().executeTakeFirstOrThrow();
      expect(await autorunDeploys(server.deps, buildTask)).toEqual([]);
      const log = await server.deps.db.selectFrom('task_output').select('output').where('task_id', '=', buildTask.id).execute();
      expect(log.map((l) => l.output)).toEqual([`Autorun: deploy template "${deploy.name}" not started: Template "${deploy.name}" is disabled`]);
      await setDisabled(false);
      expect(await autorunDeploys(server.deps, buildTask)).toHaveLength(1);
    });
  });
}
