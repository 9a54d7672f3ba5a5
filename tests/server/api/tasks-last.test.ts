import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { insertTask } from '../../support/project-rows.ts';

for (const dialect of DIALECTS) {
  describe(`GET …/tasks/last paged as Semaphore's develop pages it (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let ids: number[];
    let otherTemplateIds: number[];
    const base = () => `/api/project/${fx.project.id}`;
    const get = async (path: string) => {
      const res = await s.call('GET', path, undefined, admin);
      return { status: res.status, ids: (res.body as { id: number }[] | undefined)?.map((t) => t.id), hasNext: res.headers.get('x-has-next'), body: res.body };
    };

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      const other = await insertTemplate(s.deps.db, fx.project.id, { name: 'Other' });
      ids = [];
      otherTemplateIds = [];
      for (let i = 0; i < 7; i++) {
        ids.push((await insertTask(s.deps.db, { projectId: fx.project.id, templateId: fx.template.id, status: 'success' })).id);
        otherTemplateIds.push((await insertTask(s.deps.db, { projectId: fx.project.id, templateId: other.id, status: 'error' })).id);
      }
    });
    afterAll(async () => { await s.close(); });

    it('walks back through the tasks with count and before, saying in X-Has-Next whether older ones follow', async () => {
      const all = [...ids, ...otherTemplateIds].sort((a, b) => b - a);
      const first = await get(`${base()}/tasks/last?count=5`);
      expect([first.status, first.ids, first.hasNext]).toEqual([200, all.slice(0, 5), 'true']);
      const second = await get(`${base()}/tasks/last?count=5&before=${first.ids!.at(-1)}`);
      expect([second.ids, second.hasNext]).toEqual([all.slice(5, 10), 'true']);
      const last = await get(`${base()}/tasks/last?count=5&before=${second.ids!.at(-1)}`);
      expect([last.ids, last.hasNext]).toEqual([all.slice(10), 'false']);
      // plain array of Semaphore's Task objects, as before
      expect(first.body[0]).toMatchObject({ id: all[0], project_id: fx.project.id, tpl_playbook: expect.any(String) });
    });

    it('keeps the legacy limit and the default of 200', async () => {
      expect((await get(`${base()}/tasks/last?limit=3`)).ids).toHaveLength(3);
      const everything = await get(`${base()}/tasks/last`);
      expect([everything.ids!.length, everything.hasNext]).toEqual([14, 'false']);
      expect((await get(`${base()}/tasks/last?count=5000`)).ids).toHaveLength(14);
    });

    it('pages a template\'s own tasks the same way', async () => {
      const newest = [...ids].reverse();
      const page = await get(`${base()}/templates/${fx.template.id}/tasks/last?count=4`);
      expect([page.ids, page.hasNext]).toEqual([newest.slice(0, 4), 'true']);
      const rest = await get(`${base()}/templates/${fx.template.id}/tasks/last?count=4&before=${page.ids!.at(-1)}`);
      expect([rest.ids, rest.hasNext]).toEqual([newest.slice(4), 'false']);
    });

    it('answers a cursor that is no task id with 400', async () => {
      const res = await s.call('GET', `${base()}/tasks/last?before=abc`, undefined, admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^before: /);
    });
  });
}
