import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../../src/server/lib/time.ts';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import { insertProjectResources, type ResourceIds } from '../../support/resource-rows.ts';
import { fireSchedule } from '../../../src/server/scheduler/fire-schedule.ts';

// Grants per template (issue 52 item 3): a template with grants is seen only by the roles and
// members it names (and owners, admins), started only by those granted "run"; on every route.

type Grant = { role?: string; user_id?: number; run?: boolean };

/** Everything the API tells a caller that could name the template or its tasks and schedules. */
async function traces(s: TestServer, w: World, ids: ResourceIds, auth: World['auth'][keyof World['auth']]): Promise<Record<string, unknown>> {
  const p = `/api/project/${w.projectId}`;
  const get = async (url: string) => s.call('GET', url, undefined, auth);
  const idsOf = async (url: string) => ((await get(url)).body as { id: number }[]).map((r) => r.id);
  return {
    templates: (await idsOf(`${p}/templates`)).includes(ids.template),
    templatePage: (await idsOf(`${p}/templates?limit=50`)).includes(ids.template),
    viewTemplates: (await idsOf(`${p}/views/${ids.view}/templates`)).includes(ids.template),
    tasks: (await idsOf(`${p}/tasks`)).includes(ids.task),
    tasksPage: (await idsOf(`${p}/tasks?limit=50&offset=0`)).includes(ids.task),
    tasksLast: (await idsOf(`${p}/tasks/last`)).includes(ids.task),
    schedules: (await idsOf(`${p}/schedules`)).includes(ids.schedule),
    template: (await get(`${p}/templates/${ids.template}`)).status,
    templateTasks: (await get(`${p}/templates/${ids.template}/tasks`)).status,
    templateSchedules: (await get(`${p}/templates/${ids.template}/schedules`)).status,
    task: (await get(`${p}/tasks/${ids.task}`)).status,
    stats: ((await get(`${p}/stats`)).body as unknown[]).length > 0,
    taskOutput: (await get(`${p}/tasks/${ids.task}/output`)).status,
    schedule: (await get(`${p}/schedules/${ids.schedule}`)).status,
  };
}

const NONE = { templates: false, templatePage: false, viewTemplates: false, tasks: false, tasksPage: false, tasksLast: false, schedules: false, template: 404, templateTasks: 404, templateSchedules: 404, task: 404, taskOutput: 404, schedule: 404, stats: false };
const ALL = { templates: true, templatePage: true, viewTemplates: true, tasks: true, tasksPage: true, tasksLast: true, schedules: true, template: 200, templateTasks: 200, templateSchedules: 200, task: 200, taskOutput: 200, schedule: 200, stats: true };

for (const dialect of DIALECTS) {
  describe(`template grants (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    async function world() {
      const w = await buildWorld(s.deps.db);
      const ids = await insertProjectResources(s.deps.db, w.projectId);
      const grants = (list: Grant[]) => s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/grants`, { grants: list }, w.auth.owner);
      return { w, ids, grants };
    }

    it('a template without grants is seen by every member as before; GET lists none', async () => {
      const { w, ids } = await world();
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(ALL);
      expect((await s.call('GET', `/api/project/${w.projectId}/templates/${ids.template}/grants`, undefined, w.auth.owner)).body).toEqual({ grants: [] });
    });

    it('with grants a member named by neither role nor id sees no trace of it; owners and admins still do', async () => {
      const { w, ids, grants } = await world();
      expect((await grants([{ role: 'manager', run: true }])).status).toBe(200);
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(NONE);
      expect(await traces(s, w, ids, w.auth.guest)).toEqual(NONE);
      expect(await traces(s, w, ids, w.auth.manager)).toEqual(ALL);
      expect(await traces(s, w, ids, w.auth.owner)).toEqual(ALL);
      expect(await traces(s, w, ids, w.auth.admin)).toEqual(ALL);
      const refused = await s.call('POST', `/api/project/${w.projectId}/tasks`, { template_id: ids.template }, w.auth.task_runner);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'template_id: no such template in this project' });
    });

    it('a grant to a role or to one member shows it; only "run" lets them start it', async () => {
      const { w, ids, grants } = await world();
      const start = () => s.call('POST', `/api/project/${w.projectId}/tasks`, { template_id: ids.template }, w.auth.task_runner);
      expect((await grants([{ role: 'task_runner' }])).body).toEqual({ grants: [{ role: 'task_runner', user_id: null, run: false }] });
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(ALL);
      expect((await start()).status).toBe(400);
      await grants([{ user_id: w.users.task_runner.id, run: true }]);
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(ALL);
      expect(await traces(s, w, ids, w.auth.guest)).toEqual(NONE);
      const started = await start();
      expect(started.status).toBe(201);
      expect(started.body).toMatchObject({ template_id: ids.template });
      await grants([]);
      expect(await traces(s, w, ids, w.auth.guest)).toEqual(ALL);
    });

    it('a schedule or an integration acts for who last saved it: one saved by a member the grants let only see the template starts nothing', async () => {
      const { w, ids, grants } = await world();
      const p = `/api/project/${w.projectId}`;
      await grants([{ role: 'manager' }]);
      const body = { template_id: ids.template, name: 'Nightly', cron_format: '0 3 * * *', active: true };
      const made = await s.call('POST', `${p}/schedules`, body, w.auth.manager);
      expect(made.status).toBe(201);
      const row = () => s.deps.db.selectFrom('schedule').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
      expect((await row()).owner_id).toBe(w.users.manager.id);
      expect(made.body.owner_id).toBe(w.users.manager.id);
      expect(await fireSchedule(s.deps, await row(), new Date('2026-01-01T03:00:00Z'))).toBeNull();
      expect((await s.call('GET', `${p}/schedules/${made.body.id}`, undefined, w.auth.owner)).body.last_error).toBe('template_id: no such template in this project');
      // the project's owner saves it (an owner_id sent along is ignored): now it acts for them
      expect((await s.call('PUT', `${p}/schedules/${made.body.id}`, { ...body, id: made.body.id, owner_id: w.users.manager.id }, w.auth.owner)).status).toBe(204);
      expect((await row()).owner_id).toBe(w.users.owner.id);
      expect((await s.call('GET', `${p}/schedules/${made.body.id}`, undefined, w.auth.owner)).body.owner_id).toBe(w.users.owner.id);
      expect((await s.call('GET', `${p}/schedules`, undefined, w.auth.owner)).body).toEqual(expect.arrayContaining([expect.objectContaining({ id: made.body.id, owner_id: w.users.owner.id })]));
      expect(await fireSchedule(s.deps, await row(), new Date('2026-01-02T03:00:00Z'))).toMatchObject({ template_id: ids.template, schedule_id: made.body.id });

      const hook = await s.call('POST', `${p}/integrations`, { name: 'Push', template_id: ids.template }, w.auth.manager);
      expect(hook.status).toBe(201);
      const owner = async () => (await s.deps.db.selectFrom('integration').select('owner_id').where('id', '=', hook.body.id).executeTakeFirstOrThrow()).owner_id;
      expect(await owner()).toBe(w.users.manager.id);
      expect(hook.body.owner_id).toBe(w.users.manager.id);
      expect((await s.call('PUT', `${p}/integrations/${hook.body.id}`, { name: 'Push', template_id: ids.template, owner_id: w.users.manager.id }, w.auth.owner)).status).toBe(204);
      expect(await owner()).toBe(w.users.owner.id);
      expect((await s.call('GET', `${p}/integrations/${hook.body.id}`, undefined, w.auth.owner)).body.owner_id).toBe(w.users.owner.id);

      // saved before owners were kept (or its owner deleted): refused for a template with grants, saying how to mend it
      await s.deps.db.updateTable('schedule').set({ owner_id: null }).where('id', '=', made.body.id).execute();
      expect(await fireSchedule(s.deps, await row(), new Date('2026-01-03T03:00:00Z'))).toBeNull();
      const shown = (await s.call('GET', `${p}/schedules/${made.body.id}`, undefined, w.auth.owner)).body;
      expect([shown.owner_id, shown.last_error]).toEqual([null, expect.stringContaining('this trigger has no owner: it must be saved again by someone who may run the template')]);
    });

    it('a grant to a member ends when they leave the team: back in the team, the template is hidden again', async () => {
      const { w, ids, grants } = await world();
      const member = w.users.task_runner.id;
      await grants([{ user_id: member, run: true }, { role: 'manager' }]);
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(ALL);
      expect((await s.call('DELETE', `/api/project/${w.projectId}/users/${member}`, undefined, w.auth.owner)).status).toBe(204);
      expect((await s.call('GET', `/api/project/${w.projectId}/templates/${ids.template}/grants`, undefined, w.auth.owner)).body)
        .toEqual({ grants: [{ role: 'manager', user_id: null, run: false }] });
      expect((await s.call('POST', `/api/project/${w.projectId}/users`, { user_id: member, role: 'task_runner' }, w.auth.owner)).status).toBe(204);
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(NONE);
    });

    it('a grant to a custom role reaches its members; deleting the role takes its grants', async () => {
      const { w, ids, grants } = await world();
      await s.deps.db.insertInto('project_role').values({ project_id: w.projectId, slug: 'operator', name: 'Operator', permissions: 1 | 16, created: now() }).execute();
      await s.deps.db.updateTable('project_user').set({ role: 'operator' }).where('project_id', '=', w.projectId).where('user_id', '=', w.users.extra.id).execute();
      const extra = { authorization: `Bearer ${w.tokens.extra}` };
      await grants([{ role: 'operator', run: true }]);
      expect(await traces(s, w, ids, extra)).toEqual(ALL);
      expect((await s.call('POST', `/api/project/${w.projectId}/tasks`, { template_id: ids.template }, extra)).status).toBe(201);
      await s.deps.db.updateTable('project_user').set({ role: 'guest' }).where('project_id', '=', w.projectId).where('user_id', '=', w.users.extra.id).execute();
      const role = await s.deps.db.selectFrom('project_role').select('id').where('project_id', '=', w.projectId).where('slug', '=', 'operator').executeTakeFirstOrThrow();
      expect((await s.call('DELETE', `/api/project/${w.projectId}/roles/${role.id}`, undefined, w.auth.owner)).status).toBe(204);
      expect((await s.call('GET', `/api/project/${w.projectId}/templates/${ids.template}/grants`, undefined, w.auth.owner)).body).toEqual({ grants: [] });
    });

    it('refuses a bad list with 400 {error} and writes nothing; a change leaves an audit row', async () => {
      const { w, ids, grants } = await world();
      await grants([{ role: 'guest' }]);
      const bad: Grant[][] = [
        [{}], [{ role: 'guest', user_id: w.users.guest.id }], [{ role: 'nobody' }], [{ user_id: w.users.spare.id }],
        [{ role: 'guest' }, { role: 'guest', run: true }],
      ];
      for (const list of bad) {
        const res = await grants(list);
        expect(res.status, JSON.stringify(list)).toBe(400);
        expect(res.body.error).toEqual(expect.any(String));
      }
      expect((await s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/grants`, { grants: 'all' }, w.auth.owner)).status).toBe(400);
      expect((await s.call('GET', `/api/project/${w.projectId}/templates/${ids.template}/grants`, undefined, w.auth.owner)).body).toEqual({ grants: [{ role: 'guest', user_id: null, run: false }] });
      const last = (await s.call('GET', `/api/project/${w.projectId}/events/last`, undefined, w.auth.owner)).body[0];
      expect(last).toMatchObject({ object_type: 'template', object_id: ids.template, description: 'Template Infra grants changed' });
      expect((await s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/grants`, { grants: [] }, w.auth.task_runner)).status).toBe(403);
    });

    it('the wall board draws no tile of it, nor counts its tasks in its view\'s tile, for a member it hides from', async () => {
      const { w, ids, grants } = await world();
      await grants([{ role: 'manager' }]);
      type Tile = { kind: string; id: number; task: { id: number } | null };
      const tiles = async (by: string, auth: World['auth'][keyof World['auth']]) =>
        ((await s.call('GET', `/api/board?project_ids=${w.projectId}&by=${by}`, undefined, auth)).body.tiles as Tile[]);
      const templateIds = async (auth: World['auth'][keyof World['auth']]) => (await tiles('template', auth)).map((t) => t.id);
      expect(await templateIds(w.auth.task_runner)).not.toContain(ids.template);
      expect(await templateIds(w.auth.task_runner)).toContain(ids.spareTemplate);
      expect(await templateIds(w.auth.manager)).toContain(ids.template);
      const viewTask = async (auth: World['auth'][keyof World['auth']]) => (await tiles('view', auth)).find((t) => t.id === ids.view)?.task ?? null;
      expect(await viewTask(w.auth.manager)).not.toBeNull();
      expect(await viewTask(w.auth.task_runner)).toBeNull();
      await grants([{ role: 'task_runner' }]);
      expect(await templateIds(w.auth.task_runner)).toContain(ids.template);
      expect(await viewTask(w.auth.task_runner)).not.toBeNull();
    });

    it('the Hosts view leaves out results and runs of it for a member it hides from', async () => {
      const { w, ids, grants } = await world();
      for (const host of ['web-hidden', 'localhost']) await s.deps.db.insertInto('task_ansible_host').values({
        task_id: ids.task, project_id: w.projectId, host, ok: 1, changed: 0, unreachable: 0, failed: 1, skipped: 0, rescued: 0, ignored: 0, created: now(),
      }).execute();
      await grants([{ role: 'manager' }]);
      const p = `/api/project/${w.projectId}`;
      const detail = (auth: World['auth'][keyof World['auth']]) => s.call('GET', `${p}/hosts/web-hidden`, undefined, auth);
      // localhost: a host of the project's inventory, so the list shows it to both
      const list = (auth: World['auth'][keyof World['auth']]) => s.call('GET', `${p}/hosts?q=localhost`, undefined, auth);
      expect((await detail(w.auth.manager)).body.tasks).toEqual([expect.objectContaining({ task_id: ids.task, template_id: ids.template })]);
      expect((await detail(w.auth.task_runner)).status).toBe(404);
      expect((await list(w.auth.task_runner)).body.hosts).toEqual([expect.objectContaining({ name: 'localhost', results: [] })]);
      expect((await list(w.auth.manager)).text).toContain(`"template_id":${ids.template}`);
    });

    it('a schedule cannot name a template its maker does not see: answered as for one that is missing', async () => {
      const { w, ids, grants } = await world();
      await s.deps.db.insertInto('project_role').values({ project_id: w.projectId, slug: 'scheduler', name: 'Scheduler', permissions: 256 | 16, created: now() }).execute();
      await s.deps.db.updateTable('project_user').set({ role: 'scheduler' }).where('project_id', '=', w.projectId).where('user_id', '=', w.users.extra.id).execute();
      const extra = { authorization: `Bearer ${w.tokens.extra}` };
      await grants([{ role: 'manager' }]);
      const body = (template: number) => ({ name: 'x', template_id: template, cron_format: '* * * * *' });
      const hidden = await s.call('POST', `/api/project/${w.projectId}/schedules`, body(ids.template), extra);
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual({ error: `template_id: no template ${ids.template} in this project` });
      expect((await s.call('POST', `/api/project/${w.projectId}/schedules`, body(ids.spareTemplate), extra)).status).toBe(201);
    });

    it('backups carry role grants and restore maps them to the new template', async () => {
      const { w, ids, grants } = await world();
      await s.deps.db.insertInto('project_role').values({ project_id: w.projectId, slug: 'operator', name: 'Operator', permissions: 1 | 16, created: now() }).execute();
      await grants([{ role: 'operator', run: true }, { role: 'guest' }, { user_id: w.users.guest.id }]);
      const backup = (await s.call('GET', `/api/project/${w.projectId}/backup`, undefined, w.auth.admin)).body;
      const infra = backup.templates.find((t: { name: string }) => t.name === 'Infra');
      expect(infra.grants).toEqual([{ role: 'guest', run: false }, { role: 'operator', run: true }]);
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: `Restored ${ids.template}` } }, w.auth.admin);
      expect(restored.status).toBe(200);
      const templates = await s.call('GET', `/api/project/${restored.body.id}/templates`, undefined, w.auth.admin);
      const copy = templates.body.find((t: { name: string }) => t.name === 'Infra');
      expect((await s.call('GET', `/api/project/${restored.body.id}/templates/${copy.id}/grants`, undefined, w.auth.admin)).body)
        .toEqual({ grants: [{ role: 'guest', user_id: null, run: false }, { role: 'operator', user_id: null, run: true }] });
      const unknown = structuredClone(backup);
      unknown.templates.find((t: { name: string }) => t.name === 'Infra').grants = [{ role: 'ghost' }];
      const refused = await s.call('POST', '/api/projects/restore', { ...unknown, meta: { ...unknown.meta, name: 'Ghost' } }, w.auth.admin);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/no role "ghost"/);
    });
  });
}

// Grants per view (issue 52 item 3): a grant on a view counts on each template in it.
for (const dialect of DIALECTS) {
  describe(`view grants (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('a view granted to a role hides its templates from everyone else and lets that role see them (and run them only with run)', async () => {
      const w = await buildWorld(s.deps.db);
      const ids = await insertProjectResources(s.deps.db, w.projectId);
      const url = `/api/project/${w.projectId}/views/${ids.view}/grants`;
      const put = await s.call('PUT', url, { grants: [{ role: 'manager' }, { user_id: w.users.guest.id, run: true }] }, w.auth.owner);
      expect(put.body).toEqual({ grants: [{ role: 'manager', user_id: null, run: false }, { role: null, user_id: w.users.guest.id, run: true }] });
      expect((await s.call('GET', url, undefined, w.auth.manager)).body).toEqual(put.body);
      const last = (await s.call('GET', `/api/project/${w.projectId}/events/last`, undefined, w.auth.owner)).body[0];
      expect(last).toMatchObject({ object_type: 'view', object_id: ids.view, description: 'View View grants changed' });
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(NONE);
      expect(await traces(s, w, ids, w.auth.manager)).toEqual(ALL);
      expect(await traces(s, w, ids, w.auth.guest)).toEqual(ALL);
      expect(await traces(s, w, ids, w.auth.owner)).toEqual(ALL);
      // the manager sees but may not start; a template moved out of the view is open again
      const start = (auth: World['auth'][keyof World['auth']]) => s.call('POST', `/api/project/${w.projectId}/tasks`, { template_id: ids.template }, auth);
      expect((await start(w.auth.manager)).status).toBe(400);
      await s.deps.db.updateTable('template').set({ view_id: null }).where('id', '=', ids.template).execute();
      expect(await traces(s, w, ids, w.auth.task_runner)).toMatchObject({ templates: true, template: 200 });
      await s.deps.db.updateTable('template').set({ view_id: ids.view }).where('id', '=', ids.template).execute();
      // the guest leaving the team takes their view grant with them
      expect((await s.call('DELETE', `/api/project/${w.projectId}/users/${w.users.guest.id}`, undefined, w.auth.owner)).status).toBe(204);
      expect((await s.call('GET', url, undefined, w.auth.owner)).body).toEqual({ grants: [{ role: 'manager', user_id: null, run: false }] });
      // an empty list opens the view's templates again
      expect((await s.call('PUT', url, { grants: [] }, w.auth.owner)).status).toBe(200);
      expect(await traces(s, w, ids, w.auth.task_runner)).toEqual(ALL);
    });

    it('the activity log and workflows keep no trace of a template a member does not see', async () => {
      const w = await buildWorld(s.deps.db);
      const ids = await insertProjectResources(s.deps.db, w.projectId);
      const p = `/api/project/${w.projectId}`;
      await s.call('PUT', `${p}/templates/${ids.template}/description`, { description: 'secret steps' }, w.auth.owner);
      const workflow = await s.call('POST', `${p}/workflows`, {
        name: 'Release', nodes: [{ id: 1, kind: 'task', name: 'Deploy it', template_id: ids.template, task_params: { limit: 'web' } }, { id: 2, kind: 'delay', delay_seconds: 1 }],
        edges: [{ source_node_id: 1, destination_node_id: 2, condition: 'on_success' }],
      }, w.auth.owner);
      expect(workflow.status, workflow.text).toBe(201);
      await s.call('PUT', `${p}/templates/${ids.template}/grants`, { grants: [{ role: 'manager' }] }, w.auth.owner);
      const namesTemplate = (events: { object_type: string; object_id: number }[]) => events.some((e) => e.object_type === 'template' && e.object_id === ids.template);
      for (const url of [`${p}/events`, `${p}/events/last`, '/api/events', '/api/events/last']) {
        expect(namesTemplate((await s.call('GET', url, undefined, w.auth.manager)).body), url).toBe(true);
        expect(namesTemplate((await s.call('GET', url, undefined, w.auth.task_runner)).body), url).toBe(false);
      }
      const body = (await s.call('GET', `${p}/workflows/${workflow.body.id}`, undefined, w.auth.task_runner)).body;
      expect(body.nodes[0]).toMatchObject({ kind: 'task', template_id: null, name: '', task_params: {} });
      expect(JSON.stringify(body)).not.toContain('Deploy it');
      expect((await s.call('GET', `${p}/workflows`, undefined, w.auth.task_runner)).body[0].nodes[0].template_id).toBeNull();
      const version = (await s.call('GET', `${p}/workflows/${workflow.body.id}/versions/1`, undefined, w.auth.task_runner)).body;
      expect(version.definition.nodes[0].template_id).toBeNull();
      expect(JSON.stringify(version)).not.toContain('Deploy it');
      expect((await s.call('GET', `${p}/workflows/${workflow.body.id}`, undefined, w.auth.manager)).body.nodes[0]).toMatchObject({ template_id: ids.template, name: 'Deploy it' });
    });
  });
}
