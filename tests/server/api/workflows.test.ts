import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertMember, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';

for (const dialect of DIALECTS) {
  describe(`workflow API (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let runner: Auth;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let otherTemplate: number;
    const api = (method: string, path: string, body?: unknown, auth = admin) => s.call(method, `/api/project/${fx.project.id}/workflows${path}`, body, auth);

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      await insertMember(s.deps.db, fx.project.id, 'runner', 'task_runner');
      runner = await s.login('runner', 'member-password-1');
      const other = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      otherTemplate = other.template.id;
    });
    afterAll(async () => { await s?.close(); });

    /** A request as Semaphore Pro's web UI sends it (its API document's WorkflowTemplate), with fields we do not know. */
    const semaphoreBody = () => ({
      project_id: fx.project.id,
      name: 'Build and deploy',
      description: 'two steps',
      unknown_field: { nested: true },
      nodes: [
        { id: 101, workflow_template_id: 0, template_id: fx.template.id, kind: 'task', convergence_mode: 'all', task_params: { limit: 'web', future_param: 1 }, ui: { x: 1 } },
        { id: 102, kind: 'approval', approval_timeout: 0, approval_message: 'ok?' },
        { id: 103, kind: 'delay', delay_seconds: 5 },
        { id: 104, kind: 'note', note: 'hello' },
      ],
      edges: [
        { source_node_id: 101, destination_node_id: 102, condition: 'on_success', label: 'x' },
        { source_node_id: 102, destination_node_id: 103, condition: 'always' },
      ],
    });

    it('creates a workflow from a Semaphore-shaped body, ignoring unknown fields, and reads it back', async () => {
      const created = await api('POST', '', semaphoreBody());
      expect(created.status, created.text).toBe(201);
      const wf = created.body;
      expect(wf).toMatchObject({ project_id: fx.project.id, name: 'Build and deploy', description: 'two steps' });
      expect(wf).not.toHaveProperty('unknown_field');
      expect(wf.nodes).toHaveLength(4);
      const [task, approval, delay] = wf.nodes;
      expect(task).toMatchObject({ kind: 'task', template_id: fx.template.id, workflow_template_id: wf.id, task_params: { limit: 'web' } });
      expect(task.task_params).not.toHaveProperty('future_param');
      expect(wf.edges).toEqual([
        expect.objectContaining({ source_node_id: task.id, destination_node_id: approval.id, condition: 'on_success', input_mode: 'by_name' }),
        expect.objectContaining({ source_node_id: approval.id, destination_node_id: delay.id, condition: 'always' }),
      ]);
      expect((await api('GET', `/${wf.id}`)).body).toEqual(wf);
      expect((await api('GET', '')).body.map((w: { id: number }) => w.id)).toContain(wf.id);
    });

    it('refuses graphs that cannot run, each with a 400 naming the node', async () => {
      const cases: [string, (b: ReturnType<typeof semaphoreBody>) => void, RegExp][] = [
        ['no nodes', (b) => { b.nodes = []; b.edges = []; }, /at least one node/],
        ['two start nodes', (b) => { b.edges = b.edges.slice(1); }, /node 101|node 102/],
        ['a cycle', (b) => { b.edges.push({ source_node_id: 103, destination_node_id: 102, condition: 'always' }); }, /(cycle|no start node)/],
        ['a task without template', (b) => { delete (b.nodes[0] as { template_id?: number }).template_id; }, /task node 101: choose a template/],
        ['a template of another project', (b) => { b.nodes[0]!.template_id = otherTemplate; }, new RegExp(`task node 101: template ${otherTemplate} is not in this project`)],
        ['a note with an edge', (b) => { b.edges.push({ source_node_id: 103, destination_node_id: 104, condition: 'always' }); }, /note node 104: a note has no connections/],
        ['a delay of zero', (b) => { b.nodes[2]!.delay_seconds = 0; }, /delay node 103: delay_seconds: at least 1/],
        ['an edge to nowhere', (b) => { b.edges.push({ source_node_id: 103, destination_node_id: 999, condition: 'always' }); }, /999 is not a node/],
      ];
      for (const [what, change, message] of cases) {
        const body = semaphoreBody();
        change(body);
        const res = await api('POST', '', body);
        expect(res.status, what).toBe(400);
        expect(res.body.error, what).toMatch(message);
      }
      const cyclic = semaphoreBody();
      cyclic.nodes.push({ id: 105, kind: 'task', template_id: fx.template.id } as never);
      cyclic.edges.push({ source_node_id: 103, destination_node_id: 105, condition: 'always' }, { source_node_id: 105, destination_node_id: 102, condition: 'always' });
      const res = await api('POST', '', cyclic);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/part of a cycle/);
      expect(res.body.node_id).toEqual(expect.any(Number));
    });

    it('keeps a version per changed save, with the definition; node ids survive an edit', async () => {
      const wf = (await api('POST', '', { ...semaphoreBody(), name: 'Versioned' })).body;
      const edited = { ...wf, name: 'Versioned', nodes: wf.nodes.map((n: { kind: string }) => (n.kind === 'delay' ? { ...n, delay_seconds: 9 } : n)) };
      expect((await api('PUT', `/${wf.id}`, edited)).status).toBe(204);
      expect((await api('PUT', `/${wf.id}`, edited)).status).toBe(204);
      const after = (await api('GET', `/${wf.id}`)).body;
      expect(after.nodes.map((n: { id: number }) => n.id)).toEqual(wf.nodes.map((n: { id: number }) => n.id));
      expect(after.nodes.find((n: { kind: string }) => n.kind === 'delay').delay_seconds).toBe(9);
      const versions = (await api('GET', `/${wf.id}/versions`)).body;
      expect(versions.map((v: { version_number: number }) => v.version_number)).toEqual([2, 1]);
      expect(versions[0]).toMatchObject({ parent_version_id: versions[1].id, author_user_id: 1, content_fingerprint: expect.any(String) });
      expect((await api('GET', `/${wf.id}/versions?count=1`)).body).toHaveLength(1);
      const first = (await api('GET', `/${wf.id}/versions/1`)).body;
      expect(first.definition.nodes.find((n: { kind: string }) => n.kind === 'delay').delay_seconds).toBe(5);
      expect((await api('GET', `/${wf.id}/versions/7`)).status).toBe(404);
    });

    it('lets task runners run and read but not edit; guests of other projects see nothing', async () => {
      const wf = (await api('POST', '', { ...semaphoreBody(), name: 'Perms' })).body;
      expect((await api('GET', `/${wf.id}`, undefined, runner)).status).toBe(200);
      expect((await api('PUT', `/${wf.id}`, { name: 'x' }, runner)).status).toBe(403);
      expect((await api('POST', '', semaphoreBody(), runner)).status).toBe(403);
      expect((await api('DELETE', `/${wf.id}`, undefined, runner)).status).toBe(403);
      const run = await api('POST', `/${wf.id}/run`, undefined, runner);
      expect(run.status, run.text).toBe(201);
      expect(run.body).toMatchObject({ workflow_template_id: wf.id, project_id: fx.project.id, status: expect.stringMatching(/running|approval/) });
      const runs = (await api('GET', `/${wf.id}/runs`)).body;
      expect(runs[0]).toMatchObject({ id: run.body.id, root_task_id: expect.any(Number) });
      expect((await api('DELETE', `/${wf.id}`)).status).toBe(400);
      expect((await api('POST', `/${wf.id}/runs/${run.body.id}/stop`, undefined, runner)).status).toBe(204);
      expect((await api('GET', `/${wf.id}/runs/${run.body.id}/approvals`)).body).toEqual([]);
      expect((await api('DELETE', `/${wf.id}`)).status).toBe(204);
      expect((await api('GET', `/${wf.id}`)).status).toBe(404);
    });

    it('validates without saving for the editor', async () => {
      const body = semaphoreBody();
      body.nodes[2]!.delay_seconds = 0;
      body.edges.push({ source_node_id: 103, destination_node_id: 104, condition: 'always' });
      const res = await api('POST', '/validate', body);
      expect(res.status).toBe(200);
      expect(res.body.problems.map((p: { node_id: number }) => p.node_id)).toEqual(expect.arrayContaining([103, 104]));
    });

    it('refuses a template delete while a workflow uses it', async () => {
      const tpl = await insertTemplate(s.deps.db, fx.project.id, { name: 'Used by a workflow' });
      const body = semaphoreBody();
      body.nodes[0]!.template_id = tpl.id;
      const wf = (await api('POST', '', { ...body, name: 'Uses template' })).body;
      const refs = await s.call('GET', `/api/project/${fx.project.id}/templates/${tpl.id}/refs`, undefined, admin);
      expect(refs.status, refs.text).toBe(200);
      expect(refs.body.workflows).toEqual([{ id: wf.id, name: 'Uses template' }]);
      const del = await s.call('DELETE', `/api/project/${fx.project.id}/templates/${tpl.id}`, undefined, admin);
      expect(del.status).toBe(400);
      expect(del.body.error).toMatch(/workflow/i);
    });
  });
}
