import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import { insertProjectResources } from '../../support/resource-rows.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

/** Server-wide role templates (issue 52 item 2): defined once by an admin, held in any project by slug. */
for (const dialect of DIALECTS) {
  describe(`server-wide roles (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });
    const member = (w: World, id: number) => `/api/project/${w.projectId}/users/${id}`;
    /** The newest audit row about server role `id` (project-less entries live in the audit trail). */
    const serverEvent = async (id: number) => {
      await settleAuditInbox(s.deps.db);
      return s.deps.db.selectFrom('audit').select(['description', 'project_id', 'actor_user_id as user_id', 'action']).where('object_type', '=', 'role')
        .where('object_id', '=', id).where('project_id', 'is', null).orderBy('id', 'desc').executeTakeFirst();
    };

    it('an admin defines a role once; members of two projects hold it without a copy and act with its bits', async () => {
      const a = await buildWorld(s.deps.db);
      const b = await buildWorld(s.deps.db);
      const made = await s.call('POST', '/api/roles', { name: 'Key keeper', permissions: 128 | 16 }, a.auth.admin);
      expect(made.status).toBe(201);
      expect(made.body).toEqual({ id: made.body.id, slug: 'key_keeper', name: 'Key keeper', permissions: 144 });
      expect(await serverEvent(made.body.id)).toEqual({ description: 'Server role Key keeper created', project_id: null, user_id: a.users.admin.id, action: 'create' });
      for (const w of [a, b]) {
        const listed = (await s.call('GET', `/api/project/${w.projectId}/roles`, undefined, w.auth.guest)).body;
        expect(listed.at(-1)).toEqual({ id: null, slug: 'key_keeper', name: 'Key keeper', permissions: 144, builtin: false, server: true });
        expect((await s.call('PUT', member(w, w.users.extra.id), { role: 'key_keeper' }, w.auth.owner)).status).toBe(204);
        const keeper = { authorization: `Bearer ${w.tokens.extra}` };
        expect((await s.call('GET', `/api/project/${w.projectId}/role`, undefined, keeper)).body).toEqual({ role: 'key_keeper', permissions: 144 });
        expect((await s.call('POST', `/api/project/${w.projectId}/keys`, { name: 'K', type: 'none' }, keeper)).status).toBe(201);
        expect((await s.call('PUT', `/api/project/${w.projectId}`, { name: 'Renamed' }, keeper)).status).toBe(403);
      }
      expect(await s.deps.db.selectFrom('project_role').select('id').where('project_id', 'in', [a.projectId, b.projectId]).execute()).toEqual([]);
      // a change reaches every project at once
      expect((await s.call('PUT', `/api/roles/${made.body.id}`, { name: 'Key keeper', permissions: 16 }, a.auth.admin)).status).toBe(204);
      expect(await serverEvent(made.body.id)).toMatchObject({ description: 'Server role Key keeper updated', project_id: null });
      expect((await s.call('POST', `/api/project/${b.projectId}/keys`, { name: 'K2', type: 'none' }, { authorization: `Bearer ${b.tokens.extra}` })).status).toBe(403);
      // held: kept; released everywhere: deleted, with its grants
      const ids = await insertProjectResources(s.deps.db, a.projectId);
      expect((await s.call('PUT', `/api/project/${a.projectId}/templates/${ids.template}/grants`, { grants: [{ role: 'key_keeper' }] }, a.auth.owner)).status).toBe(200);
      const held = await s.call('DELETE', `/api/roles/${made.body.id}`, undefined, a.auth.admin);
      expect(held.status).toBe(400);
      expect(held.body.error).toMatch(/^Role Key keeper is held by user \d+ in project \d+/);
      for (const w of [a, b]) await s.call('PUT', member(w, w.users.extra.id), { role: 'guest' }, w.auth.owner);
      expect((await s.call('DELETE', `/api/roles/${made.body.id}`, undefined, a.auth.admin)).status).toBe(204);
      expect(await serverEvent(made.body.id)).toMatchObject({ description: 'Server role Key keeper deleted' });
      expect((await s.call('GET', `/api/project/${a.projectId}/templates/${ids.template}/grants`, undefined, a.auth.owner)).body).toEqual({ grants: [] });
      expect((await s.call('GET', `/api/roles/${made.body.id}`, undefined, a.auth.admin)).status).toBe(404);
    });

    it('keeps one slug per role: not a built-in one, not a project\'s own, and the slug never changes', async () => {
      const w = await buildWorld(s.deps.db);
      await s.call('POST', `/api/project/${w.projectId}/roles`, { name: 'Deployer', permissions: 1 }, w.auth.owner);
      const bad = async (method: string, path: string, body: unknown, error: RegExp) => {
        const res = await s.call(method, path, body, method === 'POST' && path.startsWith('/api/project') ? w.auth.owner : w.auth.admin);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toMatch(error);
      };
      await bad('POST', '/api/roles', { name: 'Owner' }, /built-in role/);
      await bad('POST', '/api/roles', { name: 'Deployer' }, /^slug: project \d+ has its own role "deployer"/);
      const made = await s.call('POST', '/api/roles', { name: 'Watcher', slug: 'watcher', permissions: 16 }, w.auth.admin);
      await bad('POST', '/api/roles', { name: 'Watcher' }, /already has the slug "watcher"/);
      await bad('POST', `/api/project/${w.projectId}/roles`, { name: 'Watcher' }, /^slug: "watcher" names a server role/);
      await bad('PUT', `/api/roles/${made.body.id}`, { slug: 'other' }, /cannot change/);
      expect((await s.call('GET', '/api/roles', undefined, w.auth.owner)).status).toBe(403);
      expect((await s.call('GET', '/api/roles', undefined, w.auth.admin)).body).toContainEqual({ id: made.body.id, slug: 'watcher', name: 'Watcher', permissions: 16 });
    });

    it('a backup\'s grants to a server role restore naming the same role', async () => {
      const w = await buildWorld(s.deps.db);
      await s.call('POST', '/api/roles', { name: 'Runner', slug: 'runner_all', permissions: 17 }, w.auth.admin);
      const ids = await insertProjectResources(s.deps.db, w.projectId);
      await s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/grants`, { grants: [{ role: 'runner_all', run: true }] }, w.auth.owner);
      const backup = (await s.call('GET', `/api/project/${w.projectId}/backup`, undefined, w.auth.owner)).body;
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: 'Restored grants' } }, w.auth.admin);
      expect(restored.status).toBe(200);
      const templates = (await s.call('GET', `/api/project/${restored.body.id}/templates`, undefined, w.auth.admin)).body;
      const grants = await s.call('GET', `/api/project/${restored.body.id}/templates/${templates[0].id}/grants`, undefined, w.auth.admin);
      expect(grants.body).toEqual({ grants: [{ role: 'runner_all', user_id: null, run: true }] });
    });
  });
}
