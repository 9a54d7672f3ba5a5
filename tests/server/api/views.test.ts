import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { countProjectRows } from '../../support/project-rows.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`views (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let base: string;
    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect));
      base = `/api/project/${f.project.id}/views`;
    });
    afterAll(async () => { await s.close(); });

    it('creates, reads, updates and deletes a view with events', async () => {
      const created = await s.call('POST', base, { title: 'Ops', position: 1 }, admin);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: created.body.id, project_id: f.project.id, title: 'Ops', position: 1, hidden: false, type: '', sort_reverse: false });
      expect((await s.call('GET', `${base}/${created.body.id}`, undefined, admin)).body).toEqual(created.body);
      expect((await s.call('PUT', `${base}/${created.body.id}`, { ...created.body, title: 'Operations', sort_reverse: true }, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${created.body.id}`, undefined, admin)).body).toMatchObject({ title: 'Operations', sort_reverse: true });
      expect((await s.call('DELETE', `${base}/${created.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${created.body.id}`, undefined, admin)).status).toBe(404);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select('description').where('object_type', '=', 'view').orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual(['View Ops created', 'View Operations updated', 'View Operations deleted']);
    });

    it('refuses an empty title and writes nothing', async () => {
      const before = await countProjectRows(s.deps.db);
      expect((await s.call('POST', base, { title: '  ' }, admin)).body).toEqual({ error: 'View title is required' });
      expect((await s.call('POST', base, { title: 'x', position: -1 }, admin)).status).toBe(400);
      expect(await countProjectRows(s.deps.db)).toEqual(before);
    });

    it('reorders views with POST /positions and lists them by position', async () => {
      const a = (await s.call('POST', base, { title: 'A', position: 0 }, admin)).body;
      const b = (await s.call('POST', base, { title: 'B', position: 1 }, admin)).body;
      const res = await s.call('POST', `${base}/positions`, { [a.id]: 5, [b.id]: 2 }, admin);
      expect(res.status).toBe(204);
      expect((await s.call('GET', base, undefined, admin)).body.map((v: any) => [v.title, v.position])).toEqual([['B', 2], ['A', 5]]);
      const unknown = await s.call('POST', `${base}/positions`, { [a.id]: 1, 999999: 2 }, admin);
      expect(unknown.status).toBe(400);
      expect((await s.call('GET', `${base}/${a.id}`, undefined, admin)).body.position).toBe(5);
      expect((await s.call('POST', `${base}/positions`, { x: 1 }, admin)).status).toBe(400);
    });

    it('lists the templates of a view and releases them when the view goes', async () => {
      const view = (await s.call('POST', base, { title: 'Tpl view' }, admin)).body;
      await s.call('PUT', `/api/project/${f.project.id}/templates/${f.template.id}`, { view_id: view.id }, admin);
      const list = await s.call('GET', `${base}/${view.id}/templates`, undefined, admin);
      expect(list.body.map((t: any) => t.id)).toEqual([f.template.id]);
      await s.call('DELETE', `${base}/${view.id}`, undefined, admin);
      expect((await s.call('GET', `/api/project/${f.project.id}/templates/${f.template.id}`, undefined, admin)).body.view_id).toBeNull();
    });
  });
}
