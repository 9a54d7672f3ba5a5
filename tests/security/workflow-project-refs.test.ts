import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../support/harness.ts';
import { insertProjectWithTemplate } from '../support/fixtures.ts';

// Issue 45, item 10: a workflow names templates, inventories and environments of its own project
// only; another project's ids are refused when saving, not discovered when the run starts.
for (const dialect of DIALECTS) {
  describe(`workflow saves check every id against the project (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let own: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let other: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const api = (method: string, path: string, body?: unknown) => s.call(method, `/api/project/${own.project.id}/workflows${path}`, body, admin);
    const workflow = (taskParams: Record<string, unknown>, templateId = own.template.id) => ({
      name: 'Deploy', nodes: [{ id: 1, kind: 'task', name: 'deploy', template_id: templateId, task_params: taskParams }], edges: [],
    });
    const workflowCount = async () => (await s.deps.db.selectFrom('workflow').select('id').where('project_id', '=', own.project.id).execute()).length;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      own = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      other = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
    });
    afterAll(async () => { await s?.close(); });

    it('accepts the project’s own template, inventory and environments', async () => {
      const res = await api('POST', '', workflow({ inventory_id: own.inventory.id, environment_id: own.environment.id, environment_ids: [own.environment.id] }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.nodes[0].task_params).toMatchObject({ inventory_id: own.inventory.id, environment_ids: [own.environment.id] });
    });

    it.each([
      ['environment_ids', () => ({ environment_ids: [own.environment.id, other.environment.id] }), 'environment'],
      ['environment_id', () => ({ environment_id: other.environment.id }), 'environment'],
      ['inventory_id', () => ({ inventory_id: other.inventory.id }), 'inventory'],
      ['inventory_id of no row', () => ({ inventory_id: 999_999 }), 'inventory'],
    ])('refuses %s of another project with 400 on create and on update, writing nothing', async (field, params, table) => {
      const before = await workflowCount();
      const created = await api('POST', '', workflow(params()));
      expect(created.status, created.text).toBe(400);
      expect(created.body.error).toMatch(new RegExp(`task_params\\.${field.split(' ')[0]}: no ${table} \\d+ in this project`));
      expect(await workflowCount()).toBe(before);

      const saved = await api('POST', '', workflow({}));
      expect(saved.status).toBe(201);
      const updated = await api('PUT', `/${saved.body.id}`, workflow(params()));
      expect(updated.status, updated.text).toBe(400);
      expect((await api('GET', `/${saved.body.id}`)).body.nodes[0].task_params).toEqual({});
    });

    it('refuses another project’s template', async () => {
      const res = await api('POST', '', workflow({}, other.template.id));
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(`template ${other.template.id} is not in this project`);
    });
  });
}
