import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, ADMIN, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';

for (const dialect of DIALECTS) {
  describe(`GET /tasks?offset=&limit= for paged screens (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const ids: number[] = [];

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Deploy web' });
      const other = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Elsewhere' });
      for (let i = 0; i < 45; i++) {
        for (const p of [fx, other]) {
          const row = await s.deps.db.insertInto('task').values({
            project_id: p.project.id, template_id: p.template.id, status: 'success', user_id: 1, playbook: '', environment: '{}',
            message: `run ${i}`, commit_message: '', params: '{}', created: new Date().toISOString(),
          }).returning('id').executeTakeFirstOrThrow();
          if (p === fx) ids.push(row.id);
        }
      }
    });
    afterAll(async () => { await s.close(); });

    it('answers the page newest first with the project total in X-Total-Count', async () => {
      const res = await s.call('GET', `/api/project/${fx.project.id}/tasks?offset=20&limit=20`, undefined, admin);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('45');
      const newestFirst = [...ids].reverse();
      expect(res.body.map((t: { id: number }) => t.id)).toEqual(newestFirst.slice(20, 40));
      expect(res.body[0]).toMatchObject({ tpl_alias: 'Deploy web', user_name: ADMIN.name });
    });

    it('answers the short last page, and an empty page past the end', async () => {
      const last = await s.call('GET', `/api/project/${fx.project.id}/tasks?offset=40&limit=20`, undefined, admin);
      expect(last.body.map((t: { id: number }) => t.id)).toEqual([...ids].reverse().slice(40));
      const past = await s.call('GET', `/api/project/${fx.project.id}/tasks?offset=100&limit=20`, undefined, admin);
      expect(past.body).toEqual([]);
      expect(past.headers.get('x-total-count')).toBe('45');
    });

    it('keeps the plain list (no paging parameters) as Semaphore answers it: all tasks, no total header', async () => {
      const res = await s.call('GET', `/api/project/${fx.project.id}/tasks`, undefined, admin);
      expect(res.body).toHaveLength(45);
      expect(res.headers.get('x-total-count')).toBeNull();
    });
  });
}
