import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { enqueueTask } from '../../../src/server/domain/tasks/enqueue-task.ts';

/** Semaphore 2.18's default runner: one per scope, and it takes the untagged tasks of its scope. */
for (const dialect of DIALECTS) {
  describe(`default runner (${dialect})`, () => {
    let srv: EngineServer;
    let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const call = (method: string, path: string, body?: unknown) => srv.s.call(method, path, body, srv.admin);
    const poll = async (token: string) => (await srv.s.api.request('/api/internal/runners?wait=0', { headers: { 'x-runner-token': token } })).json();

    beforeAll(async () => {
      srv = await startEngineServer(dialect);
      fixture = await insertProjectWithTemplate(srv.s.deps.db, { ownerId: 1 });
    });
    afterAll(async () => { await srv?.close(); });

    it("accepts Semaphore's RunnerRequest unchanged, several tags included", async () => {
      const body = { project_id: fixture.project.id, name: 'edge', webhook: '', max_parallel_tasks: 0, active: true, tags: ['linux', 'gpu'], registered: false };
      const created = await call('POST', `/api/project/${fixture.project.id}/runners`, body);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'edge', tags: ['linux', 'gpu'], registered: false, is_default: false });
      expect((await call('DELETE', `/api/project/${fixture.project.id}/runners/${created.body.id}`)).status).toBe(204);
    });

    it('keeps one default runner per scope: a new default replaces the old one, a global default stays apart', async () => {
      const p = `/api/project/${fixture.project.id}/runners`;
      const first = (await call('POST', p, { name: 'first', is_default: true })).body;
      expect(first.is_default).toBe(true);
      const global = (await call('POST', '/api/runners', { name: 'global', is_default: true })).body;
      const second = (await call('POST', p, { name: 'second' })).body;
      expect((await call('PUT', `${p}/${second.id}`, { is_default: true })).status).toBe(204);
      const listed = (await call('GET', p)).body as { name: string; is_default: boolean }[];
      expect(listed.filter((r) => r.is_default).map((r) => r.name)).toEqual(['second']);
      expect((await call('GET', `/api/runners/${global.id}`)).body.is_default).toBe(true);
      expect((await call('PUT', `${p}/${second.id}`, { is_default: 'yes' })).status).toBe(400);
      for (const [base, r] of [[p, first], [p, second], ['/api/runners', global]] as const) await call('DELETE', `${base}/${r.id}`);
    });

    it('hands untagged tasks to the default runner instead of the server; without a default the server runs them', async () => {
      const p = `/api/project/${fixture.project.id}/runners`;
      const runner = (await call('POST', p, { name: 'default', is_default: true })).body;
      const task = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: fixture.template.id });
      const state = await poll(runner.token);
      expect(state.new_jobs.map((j: { task_id: number }) => j.task_id)).toEqual([task.id]);
      expect((await srv.s.deps.db.selectFrom('task').select(['runner_id', 'locked_by']).where('id', '=', task.id).executeTakeFirstOrThrow()))
        .toEqual({ runner_id: runner.id, locked_by: `runner:${runner.id}` });
      await srv.s.api.request('/api/internal/runners', {
        method: 'PUT', headers: { 'x-runner-token': runner.token, 'content-type': 'application/json' },
        body: JSON.stringify({ jobs: [{ id: task.id, status: 'success' }] }),
      });
      expect((await waitForTask(srv.s.deps.db, task.id)).status).toBe('success');

      expect((await call('PUT', `${p}/${runner.id}`, { is_default: false })).status).toBe(204);
      const local = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: fixture.template.id });
      const ended = await waitForTask(srv.s.deps.db, local.id);
      expect(ended.runner_id).toBeNull();
      expect((await poll(runner.token)).new_jobs).toEqual([]);
    });
  });
}
