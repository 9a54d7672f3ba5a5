import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, ADMIN, type Auth, type TestServer } from '../../support/harness.ts';
import { insertMember, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { now } from '../../../src/server/lib/time.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`tasks API without a running engine (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let other: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const base = () => `/api/project/${fx.project.id}`;
    const post = (body: unknown, auth: Auth = admin) => s.call('POST', `${base()}/tasks`, body, auth);

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      other = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Elsewhere' });
    });
    afterAll(async () => { await s.close(); });

    it('queues a task: 201 with a waiting task, the caller as user, and a queued event', async () => {
      const res = await post({ template_id: fx.template.id, message: 'hello', environment: '{"a":1}' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ template_id: fx.template.id, project_id: fx.project.id, status: 'waiting', message: 'hello', user_id: 1, environment: '{"a":1}', secret: '{}' });
      await settleAuditInbox(s.deps.db);
      const event = await s.deps.db.selectFrom('event').select('description').where('object_id', '=', res.body.id).where('object_type', '=', 'task').executeTakeFirst();
      expect(event?.description).toBe(`Task ID ${res.body.id} queued for running`);
    });

    it('finds the template by template_name too', async () => {
      const res = await post({ template_name: 'Fixture template' });
      expect(res.status).toBe(201);
      expect(res.body.template_id).toBe(fx.template.id);
    });

    it('refuses a missing or foreign template and malformed JSON fields with 400', async () => {
      expect((await post({})).status).toBe(400);
      expect((await post({ template_id: other.template.id })).body.error).toMatch(/template_id/);
      expect((await post({ template_id: fx.template.id, environment: '[1]' })).body).toEqual({ error: 'environment: must be a JSON object' });
      expect((await post({ template_id: fx.template.id, commit_hash: '--upload-pack=x' })).status).toBe(400);
    });

    it('validates survey answers: required and int digits only; secret values are never stored', async () => {
      const tpl = await insertTemplate(s.deps.db, fx.project.id, {
        name: 'Survey', survey_vars: JSON.stringify([
          { name: 'count', title: 'Count', type: 'int', required: true },
          { name: 'pw', title: 'Password', type: 'secret', required: true },
        ]),
      });
      expect((await post({ template_id: tpl.id, secret: '{"pw":"x"}' })).body).toEqual({ error: 'Count is required' });
      expect((await post({ template_id: tpl.id, environment: '{"count":"12a"}', secret: '{"pw":"x"}' })).body).toEqual({ error: 'Count must be an integer' });
      expect((await post({ template_id: tpl.id, environment: '{"count":"12"}' })).body).toEqual({ error: 'Password is required' });
      const ok = await post({ template_id: tpl.id, environment: '{"count":"12"}', secret: '{"pw":"very-secret"}' });
      expect(ok.status).toBe(201);
      const row = await s.deps.db.selectFrom('task').selectAll().where('id', '=', ok.body.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain('very-secret');
    });

    it("takes the template's own variable groups and inventory sent back (Semaphore's UI re-runs so) and an empty branch, and echoes them", async () => {
      const own = await post({ template_id: fx.template.id, environment_ids: [fx.environment.id], inventory_id: fx.inventory.id, git_branch: '' });
      expect(own.status).toBe(201);
      expect(own.body).toMatchObject({ inventory_id: fx.inventory.id, git_branch: '', environment_ids: [fx.environment.id] });
      const other = await s.deps.db.insertInto('environment').values({ project_id: fx.project.id, name: 'Other', json: '{}', env: null, password: null }).returning('id').executeTakeFirstOrThrow();
      // a group of the template's choosing only: choosing is still refused where the template does not allow it
      const chosen = await post({ template_id: fx.template.id, environment_ids: [other.id] });
      expect(chosen.status).toBe(400);
      expect(chosen.body.error).toMatch(/^environment_ids: /);
      const reordered = await post({ template_id: fx.template.id, environment_ids: [fx.environment.id, other.id] });
      expect(reordered.status).toBe(400);
    });

    it('applies overrides only where the template allows them', async () => {
      const strict = await post({ template_id: fx.template.id, arguments: '["--x"]', git_branch: 'dev', limit: 'web', debug: true, dry_run: true, diff: true });
      expect(strict.status).toBe(201);
      expect(strict.body).toMatchObject({ limit: '', debug: true, dry_run: true, diff: true });
      // refused overrides are not stored, and unset fields are left out as Semaphore leaves them out
      expect(strict.body).not.toHaveProperty('arguments');
      expect(strict.body).not.toHaveProperty('git_branch');
      const open = await insertTemplate(s.deps.db, fx.project.id, {
        name: 'Open', allow_override_args_in_task: 1, allow_override_branch_in_task: 1,
        task_params: JSON.stringify({ allow_override_limit: true, allow_override_tags: true, allow_override_inventory: true }),
      });
      const res = await post({ template_id: open.id, arguments: '["--x"]', git_branch: 'dev', limit: 'web, db', params: { tags: ['a'] }, inventory_id: fx.inventory.id });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ arguments: '["--x"]', git_branch: 'dev', limit: 'web,db', inventory_id: fx.inventory.id, params: { limit: ['web', 'db'], tags: ['a'] } });
      expect((await post({ template_id: open.id, arguments: '"--x"' })).body).toEqual({ error: 'arguments: must be a JSON array of strings' });
      expect((await post({ template_id: open.id, inventory_id: other.inventory.id })).status).toBe(400);
    });

    it('needs the run-tasks permission to start, stop, confirm or reject', async () => {
      await insertMember(s.deps.db, fx.project.id, `guest_${dialect}`, 'guest');
      await insertMember(s.deps.db, fx.project.id, `runner_${dialect}`, 'task_runner');
      const guest = await s.login(`guest_${dialect}`, 'member-password-1');
      const runner = await s.login(`runner_${dialect}`, 'member-password-1');
      expect((await post({ template_id: fx.template.id }, guest)).status).toBe(403);
      const task = await post({ template_id: fx.template.id }, runner);
      expect(task.status).toBe(201);
      expect((await s.call('POST', `${base()}/tasks/${task.body.id}/stop`, {}, guest)).status).toBe(403);
      expect((await s.call('GET', `${base()}/tasks/${task.body.id}`, undefined, guest)).status).toBe(200);
      expect((await s.call('DELETE', `${base()}/tasks/${task.body.id}`, undefined, runner)).status).toBe(401);
    });

    it('lists tasks newest first with template and user details; /tasks/last honours limit', async () => {
      const list = await s.call('GET', `${base()}/tasks`, undefined, admin);
      expect(list.status).toBe(200);
      const ids = list.body.map((t: { id: number }) => t.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const fixtureTask = list.body.find((t: { template_id: number; user_id: number }) => t.template_id === fx.template.id && t.user_id === 1);
      expect(fixtureTask).toMatchObject({ tpl_alias: 'Fixture template', tpl_type: '', tpl_app: 'bash', tpl_playbook: 'run.sh', user_name: ADMIN.name, build_task: null });
      expect(list.body.every((t: { project_id: number }) => t.project_id === fx.project.id)).toBe(true);
      const last = await s.call('GET', `${base()}/tasks/last?limit=2`, undefined, admin);
      expect(last.body.map((t: { id: number }) => t.id)).toEqual(ids.slice(0, 2));
    });

    it('hides tasks of other projects behind 404', async () => {
      const foreign = await s.call('POST', `/api/project/${other.project.id}/tasks`, { template_id: other.template.id }, admin);
      expect((await s.call('GET', `${base()}/tasks/${foreign.body.id}`, undefined, admin)).status).toBe(404);
      expect((await s.call('GET', `${base()}/tasks/${foreign.body.id}/output`, undefined, admin)).status).toBe(404);
      expect((await s.call('POST', `${base()}/tasks/${foreign.body.id}/stop`, {}, admin)).status).toBe(404);
    });

    it('pages output with offset/limit, streams all of it, and strips ANSI codes from the raw log', async () => {
      const task = await post({ template_id: fx.template.id });
      const rows = Array.from({ length: 12 }, (_, i) => ({ task_id: task.body.id, time: now(), output: i === 0 ? '\x1b[0;32mok: [localhost]\x1b[0m' : `line ${i}` }));
      await s.deps.db.insertInto('task_output').values(rows).execute();
      const page = await s.call('GET', `${base()}/tasks/${task.body.id}/output?offset=2&limit=3`, undefined, admin);
      expect(page.body.map((r: { output: string }) => r.output)).toEqual(['line 2', 'line 3', 'line 4']);
      expect(Object.keys(page.body[0]).sort()).toEqual(['output', 'task_id', 'time']);
      const all = await s.call('GET', `${base()}/tasks/${task.body.id}/output`, undefined, admin);
      expect(all.body).toHaveLength(12);
      expect(all.body[0].output).toBe('\x1b[0;32mok: [localhost]\x1b[0m');
      const raw = await s.call('GET', `${base()}/tasks/${task.body.id}/raw_output`, undefined, admin);
      expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(raw.text.split('\n').slice(0, 2)).toEqual(['ok: [localhost]', 'line 1']);
      const empty = await post({ template_id: fx.template.id });
      expect((await s.call('GET', `${base()}/tasks/${empty.body.id}/output`, undefined, admin)).body).toEqual([]);
    });

    it('answers any window of the log by position with the line count in X-Total-Count, near the end as at the start', async () => {
      const task = await post({ template_id: fx.template.id });
      const neighbour = await post({ template_id: fx.template.id });
      // Lines of another task interleave, as they do when tasks run side by side.
      const rows = Array.from({ length: 300 }, (_, i) => ({ task_id: i % 3 === 2 ? neighbour.body.id : task.body.id, time: now(), output: `line ${i}` }));
      await s.deps.db.insertInto('task_output').values(rows).execute();
      const ours = rows.filter((r) => r.task_id === task.body.id).map((r) => r.output);
      const window = async (query: string) => {
        const res = await s.call('GET', `${base()}/tasks/${task.body.id}/output?${query}`, undefined, admin);
        return { total: res.headers.get('x-total-count'), lines: res.body.map((r: { output: string }) => r.output) };
      };
      expect(await window('offset=0&limit=3')).toEqual({ total: '200', lines: ours.slice(0, 3) });
      expect(await window('offset=99&limit=4')).toEqual({ total: '200', lines: ours.slice(99, 103) });
      expect(await window('offset=190&limit=50')).toEqual({ total: '200', lines: ours.slice(190) });
      expect(await window('offset=150&limit=20')).toEqual({ total: '200', lines: ours.slice(150, 170) });
      expect(await window('offset=500&limit=20')).toEqual({ total: '200', lines: [] });
      // Finished long ago: the count is kept, the windows stay the same.
      await s.deps.db.updateTable('task').set({ status: 'success', end: '2026-01-01T00:00:00Z' }).where('id', '=', task.body.id).execute();
      for (let i = 0; i < 2; i++) {
        expect(await window('offset=190&limit=50')).toEqual({ total: '200', lines: ours.slice(190) });
        expect(await window('offset=0&limit=2')).toEqual({ total: '200', lines: ours.slice(0, 2) });
      }
    });

    it('stops a waiting task at once; stopping a finished task is a 204 that keeps it; confirm needs waiting_confirmation', async () => {
      const task = await post({ template_id: fx.template.id });
      expect((await s.call('POST', `${base()}/tasks/${task.body.id}/stop`, undefined, admin)).status).toBe(204);
      const row = await s.call('GET', `${base()}/tasks/${task.body.id}`, undefined, admin);
      expect(row.body.status).toBe('stopped');
      expect(row.body.end).not.toBeNull();
      const ended = row.body.end;
      // as Semaphore (its API tests stop a finished task); the body `null` is read as no fields
      const again = await s.call('POST', `${base()}/tasks/${task.body.id}/stop`, 'null', admin);
      expect(again.status).toBe(204);
      expect((await s.call('GET', `${base()}/tasks/${task.body.id}`, undefined, admin)).body).toMatchObject({ status: 'stopped', end: ended });
      expect((await s.call('POST', `${base()}/tasks/${task.body.id}/confirm`, undefined, admin)).status).toBe(400);
      expect((await s.call('POST', `${base()}/tasks/${task.body.id}/reject`, undefined, admin)).status).toBe(400);
    });

    it('deletes only finished tasks, with their output', async () => {
      const task = await post({ template_id: fx.template.id });
      expect((await s.call('DELETE', `${base()}/tasks/${task.body.id}`, undefined, admin)).status).toBe(400);
      await s.call('POST', `${base()}/tasks/${task.body.id}/stop`, {}, admin);
      await s.deps.db.insertInto('task_output').values({ task_id: task.body.id, time: now(), output: 'x' }).execute();
      expect((await s.call('DELETE', `${base()}/tasks/${task.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base()}/tasks/${task.body.id}`, undefined, admin)).status).toBe(404);
      const left = await s.deps.db.selectFrom('task_output').select('id').where('task_id', '=', task.body.id).execute();
      expect(left).toEqual([]);
    });

    it('lists the task pool for admins in Semaphore\'s shape, queue first; others get 403', async () => {
      const queued = await post({ template_id: fx.template.id });
      const running = await post({ template_id: fx.template.id });
      await s.deps.db.updateTable('task').set({ status: 'running' }).where('id', '=', running.body.id).execute();
      const res = await s.call('GET', '/api/tasks', undefined, admin);
      expect(res.status).toBe(200);
      const mine = res.body.filter((t: { task_id: number }) => [queued.body.id, running.body.id].includes(t.task_id));
      expect(mine).toEqual([
        { task_id: queued.body.id, project_id: fx.project.id, project_name: fx.project.name, username: 'admin', runner_id: null, runner_name: null, status: 'waiting', location: 'queue' },
        { task_id: running.body.id, project_id: fx.project.id, project_name: fx.project.name, username: 'admin', runner_id: null, runner_name: null, status: 'running', location: 'running' },
      ]);
      const locations = res.body.map((t: { location: string }) => t.location);
      expect(locations).toEqual([...locations].sort((a: string, b: string) => (a === b ? 0 : a === 'queue' ? -1 : 1)));
      expect(res.body.every((t: { status: string }) => !['success', 'error', 'stopped'].includes(t.status))).toBe(true);
      const runner = await s.login(`runner_${dialect}`, 'member-password-1');
      expect((await s.call('GET', '/api/tasks', undefined, runner)).status).toBe(403);
      await s.deps.db.updateTable('task').set({ status: 'stopped' }).where('id', '=', running.body.id).execute();
    });

    it('DELETE /api/tasks/{id} stops a pooled task of any project (admins only); a finished or unknown task is 204 and stays', async () => {
      const task = await post({ template_id: fx.template.id });
      const runner = await s.login(`runner_${dialect}`, 'member-password-1');
      expect((await s.call('DELETE', `/api/tasks/${task.body.id}`, undefined, runner)).status).toBe(403);
      expect((await s.call('GET', `${base()}/tasks/${task.body.id}`, undefined, admin)).body.status).toBe('waiting');
      expect((await s.call('DELETE', `/api/tasks/${task.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base()}/tasks/${task.body.id}`, undefined, admin)).body.status).toBe('stopped');
      expect((await s.call('DELETE', `/api/tasks/${task.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base()}/tasks/${task.body.id}`, undefined, admin)).body.status).toBe('stopped');
      expect((await s.call('DELETE', '/api/tasks/999999', undefined, admin)).status).toBe(204);
      expect((await s.call('DELETE', '/api/tasks/abc', undefined, admin)).status).toBe(400);
    });

    it('stop_all_tasks stops every active task of the template', async () => {
      const tpl = await insertTemplate(s.deps.db, fx.project.id, { name: 'Many', allow_parallel_tasks: 1 });
      const a = await post({ template_id: tpl.id });
      const b = await post({ template_id: tpl.id });
      expect((await s.call('POST', `${base()}/templates/${tpl.id}/stop_all_tasks`, { force: true }, admin)).status).toBe(204);
      for (const t of [a, b]) expect((await s.call('GET', `${base()}/tasks/${t.body.id}`, undefined, admin)).body.status).toBe('stopped');
      expect((await s.call('POST', `/api/project/${fx.project.id}/templates/${other.template.id}/stop_all_tasks`, {}, admin)).status).toBe(404);
    });

    it('numbers build versions from start_version', async () => {
      const build = await insertTemplate(s.deps.db, fx.project.id, { name: 'Build', type: 'build', start_version: '1.0.0' });
      const versions: string[] = [];
      for (let i = 0; i < 3; i++) versions.push((await post({ template_id: build.id })).body.version);
      expect(versions).toEqual(['1.0.0', '1.0.1', '1.0.2']);
    });
  });
}
