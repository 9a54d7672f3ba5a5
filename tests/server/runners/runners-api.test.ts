import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { startHttpReceiver, eventually } from '../../support/http-receiver.ts';
import { enqueueTask } from '../../../src/server/domain/tasks/enqueue-task.ts';
import { hostFactsOf } from '../../../src/server/domain/tasks/host-facts.ts';
import { openSealed } from '../../../src/server/domain/runners/runner-crypto.ts';

/**
 * The runner API (global and project runners, tags, registration, active, cache) and the
 * runners' protocol driven by hand as a runner would, with the engine running.
 */
for (const dialect of DIALECTS) {
  describe(`runners API (${dialect})`, () => {
    let srv: EngineServer;
    let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const call = (method: string, path: string, body?: unknown) => srv.s.call(method, path, body, srv.admin);
    const runnerCall = (method: string, token: string, body?: unknown, headers: Record<string, string> = {}, query = '') =>
      srv.s.api.request(`/api/internal/runners${query}`, {
        method, headers: { 'x-runner-token': token, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, ...(body ? { body: JSON.stringify(body) } : {}),
      });

    beforeAll(async () => {
      srv = await startEngineServer(dialect, { SIGNALBOX_RUNNER_POLL_HOLD_MS: '3000' });
      fixture = await insertProjectWithTemplate(srv.s.deps.db, { ownerId: 1 });
    });
    afterAll(async () => { await srv?.close(); });

    it('creates a project runner: token and private key once, never again; lists page with X-Total-Count', async () => {
      const p = `/api/project/${fixture.project.id}/runners`;
      const created = await call('POST', p, { name: 'Builder', tag: 'linux', max_parallel_tasks: 0 });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Builder', tag: 'linux', tags: ['linux'], project_id: fixture.project.id, active: true, registered: true, max_parallel_tasks: 0 });
      expect(created.body.token).toMatch(/^[A-Za-z0-9+/=]{44}$/);
      expect(created.body.private_key).toContain('BEGIN PRIVATE KEY');
      await call('POST', p, { name: 'Second', tag: 'linux' });
      const list = await call('GET', `${p}?offset=0&limit=1`);
      expect(list.headers.get('x-total-count')).toBe('2');
      expect(list.body.map((r: { name: string }) => r.name)).toEqual(['Builder']);
      const all = await call('GET', p);
      const one = await call('GET', `${p}/${created.body.id}`);
      for (const text of [list.text, all.text, one.text]) {
        expect(text).not.toContain(created.body.token);
        expect(text).not.toContain('PRIVATE KEY');
      }
      // a project's runner is not another project's, nor a global one
      expect((await call('GET', `/api/runners/${created.body.id}`)).status).toBe(404);
      const tags = await call('GET', `/api/project/${fixture.project.id}/runner_tags`);
      expect(tags.body).toEqual([{ tag: 'linux', number_of_runners: 2 }]);
      const put = await call('PUT', `${p}/${created.body.id}`, { name: 'Renamed', tags: ['linux', 'arm'], webhook: 'http://127.0.0.1:9/x' });
      expect(put.status).toBe(204);
      expect((await call('GET', `${p}/${created.body.id}`)).body).toMatchObject({ name: 'Renamed', tags: ['linux', 'arm'], webhook: 'http://127.0.0.1:9/x' });
      expect((await call('PUT', `${p}/${created.body.id}`, { name: 'X', project_id: fixture.project.id + 1000 })).status).toBe(400);
      // a name is optional, as in Semaphore's RunnerRequest (the console asks for one)
      const unnamed = await call('POST', p, { tag: 'x' });
      expect(unnamed.status).toBe(201);
      expect(unnamed.body.name).toBe('');
      expect((await call('DELETE', `${p}/${unnamed.body.id}`)).status).toBe(204);
      expect((await call('DELETE', `${p}/${created.body.id}`)).status).toBe(204);
      expect((await call('GET', `${p}/${created.body.id}`)).status).toBe(404);
    });

    it('an unregistered runner registers once with its one-time registration token', async () => {
      const created = await call('POST', '/api/runners', { name: 'Later', registered: false });
      expect(created.body).toMatchObject({ registered: false, active: false });
      expect(created.body.token).toBeUndefined();
      const reg = await call('POST', `/api/runners/${created.body.id}/registration-token`);
      expect(reg.status).toBe(200);
      expect(reg.body).toMatchObject({ runner_id: created.body.id, project_id: null });
      const first = await srv.s.api.request('/api/internal/runners', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registration_token: reg.body.registration_token, tags: ['x'] }) });
      expect(first.status).toBe(200);
      const answer = (await first.json()) as { token: string; private_key: string };
      expect(answer.private_key).toContain('PRIVATE KEY');
      const again = await srv.s.api.request('/api/internal/runners', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registration_token: reg.body.registration_token }) });
      expect([again.status, await again.json()]).toEqual([400, { error: 'Invalid registration token' }]);
      expect((await call('GET', `/api/runners/${created.body.id}`)).body).toMatchObject({ registered: true, active: true, tags: ['x'] });
      expect((await call('POST', `/api/runners/${created.body.id}/registration-token`)).body).toEqual({ error: 'Runner is already registered' });
      expect((await runnerCall('GET', answer.token, undefined, {}, '?wait=0')).status).toBe(200);
      expect((await runnerCall('GET', 'nope', undefined, {}, '?wait=0')).status).toBe(404);
      const missing = await srv.s.api.request('/api/internal/runners');
      expect([missing.status, await missing.json()]).toEqual([401, { error: 'Invalid token' }]);
      expect((await runnerCall('DELETE', answer.token)).status).toBe(204);
      expect((await call('GET', `/api/runners/${created.body.id}`)).status).toBe(404);
    });

    it('hands a tagged task to an idle long-polling runner at once, sealed to its key; webhook start and finish; progress and bad progress', async () => {
      const hook = await startHttpReceiver();
      try {
        const created = (await call('POST', '/api/runners', { name: 'Poller', tag: 'fast', webhook: `${hook.url}/scale` })).body;
        await insertEnvironmentSecret(srv.s.deps.db, srv.s.deps.secrets, fixture.environment.id, fixture.project.id, 'var', 'api_secret', 'very-secret-value-9');
        const t = await insertTemplate(srv.s.deps.db, fixture.project.id, { name: 'fast', runner_tag: 'fast', environment_id: fixture.environment.id, repository_id: fixture.repository.id });
        // a hold far longer than any wake-up, so an answer well inside it was woken by the task
        const hold = srv.s.deps.config.runner_poll_hold_ms;
        srv.s.deps.config.runner_poll_hold_ms = 120_000;
        const polling = Promise.resolve(runnerCall('GET', created.token)).finally(() => { srv.s.deps.config.runner_poll_hold_ms = hold; });
        await new Promise((r) => setTimeout(r, 200));
        const queued = Date.now();
        const task = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: t.id });
        const res = await polling;
        const elapsed = Date.now() - queued;
        const text = await res.text();
        expect(text).not.toContain('very-secret-value-9');
        const state = JSON.parse(text);
        expect(state.new_jobs.map((j: { task_id: number }) => j.task_id)).toEqual([task.id]);
        // woken by the task, not by the hold running out (how fast is bench/'s business)
        expect(elapsed).toBeLessThan(60_000);
        const payload = JSON.parse(openSealed(created.private_key, state.new_jobs[0].sealed));
        expect(payload.task.id).toBe(task.id);
        expect(JSON.stringify(payload.keys)).toContain('very-secret-value-9');
        await eventually(() => hook.received.some((r) => r.body.action === 'start'), 'the start webhook');
        expect(hook.received[0]!.body).toEqual({ action: 'start', project_id: fixture.project.id, task_id: task.id, template_id: t.id, runner_id: created.id });

        const bad = await runnerCall('PUT', created.token, { jobs: [{ id: task.id, status: 'flying' }] });
        expect(bad.status).toBe(400);
        // outputs travel as the JSON text the task wrote, not as an object
        const objectOutputs = await runnerCall('PUT', created.token, { jobs: [{ id: task.id, status: 'success', outputs: { a: 1 } }] });
        expect([objectOutputs.status, await objectOutputs.json()]).toEqual([400, { error: 'jobs.0.outputs: Invalid input: expected string, received object' }]);
        const notJson = await srv.s.api.request('/api/internal/runners', { method: 'PUT', headers: { 'x-runner-token': created.token, 'content-type': 'application/json' }, body: '{' });
        expect(notJson.status).toBe(400);
        // Semaphore's own runner spells the fields in Go's case
        const put = await runnerCall('PUT', created.token, { Jobs: [{ ID: task.id, Status: 'running', LogRecords: [{ time: new Date().toISOString(), message: 'hello from the runner' }] }] });
        expect(put.status).toBe(204);
        await runnerCall('PUT', created.token, { jobs: [{ id: task.id, status: 'success', log_records: [{ message: 'done' }] }] });
        const ended = await waitForTask(srv.s.deps.db, task.id);
        expect(ended.status).toBe('success');
        expect(await taskLog(srv.s.deps.db, task.id)).toEqual(expect.arrayContaining([`Task handed to runner #${created.id} (Poller)`, 'hello from the runner', 'done']));
        await eventually(() => hook.received.some((r) => r.body.action === 'finish'), 'the finish webhook');
        // a task not handed to this runner is ignored
        const other = (await call('POST', '/api/runners', { name: 'Other' })).body;
        await runnerCall('PUT', other.token, { jobs: [{ id: task.id, status: 'error', log_records: [{ message: 'intruder' }] }] });
        expect(await taskLog(srv.s.deps.db, task.id)).not.toContain('intruder');
      } finally {
        await hook.close();
      }
    });

    it('takes a quick job\'s end reported straight from starting (running and success in one batch) and never hands it out again', async () => {
      const r = (await call('POST', '/api/runners', { name: 'Quick', tag: 'quick' })).body;
      const t = await insertTemplate(srv.s.deps.db, fixture.project.id, { name: 'quick one', runner_tag: 'quick' });
      const task = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: t.id });
      expect((await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json()).new_jobs[0].task_id).toBe(task.id);
      // one batch, lines of several timestamps: stored in order, each with its own time, numbered on
      const records = [['2026-11-25T10:00:00.001Z', 'over at once'], ['2026-11-25T10:00:00.002Z', 'second'], ['2026-11-25T10:00:00.002Z', 'third'], ['2026-11-25T10:00:00.009Z', 'last']];
      const batch = { id: task.id, status: 'success', log_records: records.map(([time, message]) => ({ time, message })) };
      expect((await runnerCall('PUT', r.token, { jobs: [batch] })).status).toBe(204);
      const ended = await waitForTask(srv.s.deps.db, task.id);
      expect(ended.status).toBe('success');
      expect(ended.start).toBeTruthy();
      const rows = await srv.s.deps.db.selectFrom('task_output').select(['time', 'output', 'line']).where('task_id', '=', task.id).orderBy('id').execute();
      const handed = rows.findIndex((row) => row.output.startsWith('Task handed to runner'));
      expect(rows.slice(handed + 1).map((row) => [row.time, row.output])).toEqual(records);
      expect(rows.map((row) => row.line)).toEqual(rows.map((_, i) => i + 1));
      expect((await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json()).new_jobs).toEqual([]);
    });

    it('starts the autorun deploys of a build that succeeded on a runner, with that build', async () => {
      const r = (await call('POST', '/api/runners', { name: 'Builder', tag: 'builds' })).body;
      const build = await insertTemplate(srv.s.deps.db, fixture.project.id, { name: 'remote build', runner_tag: 'builds', type: 'build', start_version: '1.0.0' });
      const deploy = await insertTemplate(srv.s.deps.db, fixture.project.id, { name: 'remote deploy', runner_tag: 'builds', type: 'deploy', build_template_id: build.id, autorun: 1 });
      const task = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: build.id });
      expect((await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json()).new_jobs[0].task_id).toBe(task.id);
      expect((await runnerCall('PUT', r.token, { jobs: [{ id: task.id, status: 'running' }] })).status).toBe(204);
      expect((await runnerCall('PUT', r.token, { jobs: [{ id: task.id, status: 'success' }] })).status).toBe(204);
      const deploys = await srv.s.deps.db.selectFrom('task').select(['build_task_id', 'status']).where('template_id', '=', deploy.id).execute();
      expect(deploys).toEqual([{ build_task_id: task.id, status: 'waiting' }]);
      await srv.s.deps.db.updateTable('task').set({ status: 'stopped' }).where('template_id', '=', deploy.id).execute();
    });

    it('stores the host facts a runner reports with a job\'s end, judged as a facts file written here; a report without facts is fine', async () => {
      const r = (await call('POST', '/api/runners', { name: 'Gatherer', tag: 'facts' })).body;
      const t = await insertTemplate(srv.s.deps.db, fixture.project.id, { name: 'gathers on a runner', runner_tag: 'facts' });
      const task = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: t.id });
      expect((await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json()).new_jobs[0].task_id).toBe(task.id);
      const asObject = await runnerCall('PUT', r.token, { jobs: [{ id: task.id, status: 'running', facts: { web1: { distribution: 'Debian' } } }] });
      expect([asObject.status, await asObject.json()]).toEqual([400, { error: 'jobs.0.facts: Invalid input: expected string, received object' }]);
      expect((await runnerCall('PUT', r.token, { jobs: [{ id: task.id, status: 'running' }] })).status).toBe(204);
      const facts = JSON.stringify({
        'remote-web': { distribution: 'Debian', distribution_version: '12.11', ipv4: '192.0.2.7', hostname: 'remote-web', password: 'hunter2' },
        'remote-db': { distribution: 7 },
      });
      // a failed run's facts are as true as a successful one's; Semaphore-style casing reaches the field too
      expect((await runnerCall('PUT', r.token, { Jobs: [{ ID: task.id, Status: 'error', Facts: facts }] })).status).toBe(204);
      expect((await waitForTask(srv.s.deps.db, task.id)).status).toBe('error');
      const stored = await hostFactsOf(srv.s.deps.db, fixture.project.id);
      expect(stored.get('remote-web')).toEqual({ distribution: 'Debian', distribution_version: '12.11', ipv4: '192.0.2.7', hostname: 'remote-web', task_id: task.id, gathered: expect.any(String) });
      expect(stored.has('remote-db')).toBe(false);
      // a broken text stores nothing and does not refuse the report
      const other = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: t.id });
      await runnerCall('GET', r.token, undefined, {}, '?wait=0');
      expect((await runnerCall('PUT', r.token, { jobs: [{ id: other.id, status: 'running' }, { id: other.id, status: 'success', facts: '{"remote-web": {"distri' }] })).status).toBe(204);
      expect((await waitForTask(srv.s.deps.db, other.id)).status).toBe('success');
      expect((await hostFactsOf(srv.s.deps.db, fixture.project.id)).get('remote-web')?.task_id).toBe(task.id);
    });

    it('mirrors stop to the runner through the poll; inactive runners get nothing; the cache request reaches the runner once', async () => {
      const r = (await call('POST', '/api/runners', { name: 'Stopper', tag: 'stop' })).body;
      const t = await insertTemplate(srv.s.deps.db, fixture.project.id, { name: 'stoppable', runner_tag: 'stop' });
      const task = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: t.id });
      const first = await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json();
      expect(first.new_jobs[0].task_id).toBe(task.id);
      await runnerCall('PUT', r.token, { jobs: [{ id: task.id, status: 'running' }] });
      const polling = runnerCall('GET', r.token, undefined, { 'x-runner-jobs': `${task.id}=running` });
      await new Promise((res) => setTimeout(res, 150));
      expect((await call('POST', `/api/project/${fixture.project.id}/tasks/${task.id}/stop`, {})).status).toBe(204);
      const state = await (await polling).json();
      expect(state.current_jobs).toEqual([{ id: task.id, status: 'stopping' }]);
      await runnerCall('PUT', r.token, { jobs: [{ id: task.id, status: 'stopped' }] });
      expect((await waitForTask(srv.s.deps.db, task.id)).status).toBe('stopped');

      expect((await call('POST', `/api/runners/${r.id}/active`, { active: false })).status).toBe(204);
      const waiting = await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: t.id });
      expect((await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json()).new_jobs).toEqual([]);
      await srv.s.deps.db.updateTable('task').set({ status: 'stopped' }).where('id', '=', waiting.id).execute();

      expect((await call('DELETE', `/api/runners/${r.id}/cache`)).status).toBe(204);
      expect((await call('GET', `/api/runners/${r.id}`)).body.cleaning_requested).toMatch(/^\d{4}-/);
      expect((await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json()).cleaning_requested).toBe(true);
      expect((await (await runnerCall('GET', r.token, undefined, {}, '?wait=0')).json()).cleaning_requested).toBe(false);
    });
  });
}
