import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import { insertProjectResources } from '../../support/resource-rows.ts';

for (const dialect of DIALECTS) {
  describe(`custom project roles (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });
    const roles = (w: World) => `/api/project/${w.projectId}/roles`;
    const member = (w: World, id: number) => `/api/project/${w.projectId}/users/${id}`;
    const lastEvent = async (w: World) => (await s.call('GET', `/api/project/${w.projectId}/events/last`, undefined, w.auth.owner)).body[0];

    it('lists Semaphore\'s four roles with their bits first, fixed and without an id', async () => {
      const w = await buildWorld(s.deps.db);
      const res = await s.call('GET', roles(w), undefined, w.auth.guest);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: null, slug: 'owner', name: 'owner', permissions: 15, builtin: true, server: false },
        { id: null, slug: 'manager', name: 'manager', permissions: 5, builtin: true, server: false },
        { id: null, slug: 'task_runner', name: 'task_runner', permissions: 1, builtin: true, server: false },
        { id: null, slug: 'guest', name: 'guest', permissions: 0, builtin: true, server: false },
      ]);
    });

    it('makes an Operator that runs tasks and edits inventories and nothing else; a member holds it by slug', async () => {
      const w = await buildWorld(s.deps.db);
      const made = await s.call('POST', roles(w), { name: 'Operator', permissions: 1 | 16 | 32 }, w.auth.owner);
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ slug: 'operator', name: 'Operator', permissions: 49, builtin: false });
      expect(await lastEvent(w)).toMatchObject({ description: 'Role Operator created', object_type: 'role', object_id: made.body.id });
      expect((await s.call('PUT', member(w, w.users.extra.id), { role: 'operator' }, w.auth.owner)).status).toBe(204);
      const operator = { authorization: `Bearer ${w.tokens.extra}` };
      expect((await s.call('GET', `/api/project/${w.projectId}/role`, undefined, operator)).body).toEqual({ role: 'operator', permissions: 49 });
      const key = await s.call('POST', `/api/project/${w.projectId}/keys`, { name: 'None', type: 'none' }, w.auth.owner);
      const inventory = await s.call('POST', `/api/project/${w.projectId}/inventory`, { name: 'Fleet', type: 'static', inventory: 'localhost', ssh_key_id: key.body.id }, operator);
      expect(inventory.body).toMatchObject({ name: 'Fleet' });
      expect((await s.call('POST', `/api/project/${w.projectId}/keys`, { name: 'K', type: 'none' }, operator)).status).toBe(403);
      expect((await s.call('POST', `/api/project/${w.projectId}/environment`, { name: 'E', json: '{}' }, operator)).status).toBe(403);
      expect((await s.call('PUT', `/api/project/${w.projectId}`, { name: 'Renamed' }, operator)).status).toBe(403);
      const ids = await insertProjectResources(s.deps.db, w.projectId);
      const run = await s.call('POST', `/api/project/${w.projectId}/tasks`, { template_id: ids.template }, operator);
      expect(run.status).toBe(201);
      expect((await s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/description`, { description: 'x' }, operator)).status).toBe(403);
      // the role's bits change for everyone holding it
      expect((await s.call('PUT', `${roles(w)}/${made.body.id}`, { name: 'Operator', permissions: 49 | 128 }, w.auth.owner)).status).toBe(204);
      expect(await lastEvent(w)).toMatchObject({ description: 'Role Operator updated' });
      expect((await s.call('POST', `/api/project/${w.projectId}/keys`, { name: 'K', type: 'none' }, operator)).status).toBe(201);
    });

    it('refuses bad roles with 400 and writes nothing', async () => {
      const w = await buildWorld(s.deps.db);
      const bad = async (body: unknown, error: RegExp) => {
        const res = await s.call('POST', roles(w), body, w.auth.owner);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toMatch(error);
      };
      await bad({ permissions: 1 }, /^name: required/);
      await bad({ name: 'Too much', permissions: 1 << 20 }, /^permissions: only the bits in 2047/);
      await bad({ name: 'Half', permissions: 1.5 }, /^permissions: must be a whole number/);
      await bad({ name: 'Owner' }, /^slug: owner is a built-in role/);
      await bad({ name: 'X', slug: 'Has Space' }, /^slug: must start with a letter/);
      await bad({ name: '!!!' }, /^slug: required/);
      expect((await s.call('POST', roles(w), { name: 'Deployers' }, w.auth.owner)).status).toBe(201);
      await bad({ name: 'Deployers' }, /^slug: role \d+ already has the slug "deployers"/);
      const list = await s.call('GET', roles(w), undefined, w.auth.owner);
      expect(list.body.filter((r: { builtin: boolean }) => !r.builtin).map((r: { slug: string }) => r.slug)).toEqual(['deployers']);
    });

    it('keeps a role\'s slug, the built-in roles unchangeable and a role in use undeletable', async () => {
      const w = await buildWorld(s.deps.db);
      const made = await s.call('POST', roles(w), { name: 'Runners', slug: 'runners', permissions: 1 }, w.auth.owner);
      const one = `${roles(w)}/${made.body.id}`;
      expect((await s.call('PUT', one, { slug: 'other' }, w.auth.owner)).body).toEqual({ error: 'slug: cannot change once made (members hold it)' });
      expect((await s.call('GET', one, undefined, w.auth.guest)).body).toMatchObject({ slug: 'runners', name: 'Runners', permissions: 1 });
      // built-in roles are no rows: there is nothing to change or delete
      expect((await s.call('PUT', `${roles(w)}/999999`, { name: 'x' }, w.auth.owner)).status).toBe(404);
      expect((await s.call('PUT', member(w, w.users.extra.id), { role: 'runners' }, w.auth.owner)).status).toBe(204);
      const held = await s.call('DELETE', one, undefined, w.auth.owner);
      expect(held.status).toBe(400);
      expect(held.body.error).toBe(`Role Runners is held by user ${w.users.extra.id}; give them another role first`);
      expect((await s.call('PUT', member(w, w.users.extra.id), { role: 'guest' }, w.auth.owner)).status).toBe(204);
      expect((await s.call('DELETE', one, undefined, w.auth.owner)).status).toBe(204);
      expect(await lastEvent(w)).toMatchObject({ description: 'Role Runners deleted' });
    });

    it('names the project\'s roles when a member is given an unknown one, and hands out no more than the giver holds', async () => {
      const w = await buildWorld(s.deps.db);
      await s.call('POST', roles(w), { name: 'Team admins', slug: 'team_admins', permissions: 8 | 16 }, w.auth.owner);
      const unknown = await s.call('PUT', member(w, w.users.extra.id), { role: 'admin' }, w.auth.owner);
      expect(unknown.body).toEqual({ error: 'role: must be one of owner, manager, task_runner, guest, team_admins' });
      expect((await s.call('PUT', member(w, w.users.extra.id), { role: 'team_admins' }, w.auth.owner)).status).toBe(204);
      const teamAdmin = { authorization: `Bearer ${w.tokens.extra}` };
      const escalate = await s.call('POST', `/api/project/${w.projectId}/users`, { user_id: w.users.spare.id, role: 'owner' }, teamAdmin);
      expect(escalate.body).toEqual({ error: 'role: owner holds rights you do not have' });
      expect((await s.call('POST', `/api/project/${w.projectId}/users`, { user_id: w.users.spare.id, role: 'guest' }, teamAdmin)).text).toBe('');
    });

    it('travels in the backup and comes back on restore; a backup with a bad role restores nothing', async () => {
      const w = await buildWorld(s.deps.db);
      await s.call('POST', roles(w), { name: 'Operator', permissions: 49 }, w.auth.owner);
      const backup = (await s.call('GET', `/api/project/${w.projectId}/backup`, undefined, w.auth.owner)).body;
      expect(backup.roles).toEqual([{ slug: 'operator', name: 'Operator', permissions: 49 }]);
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: 'Restored roles' } }, w.auth.admin);
      expect(restored.status).toBe(200);
      const list = await s.call('GET', `/api/project/${restored.body.id}/roles`, undefined, w.auth.admin);
      expect(list.body.filter((r: { builtin: boolean }) => !r.builtin)).toMatchObject([{ slug: 'operator', name: 'Operator', permissions: 49 }]);
      const projects = async () => Number((await s.deps.db.selectFrom('project').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const before = await projects();
      for (const [role, error] of [
        [{ slug: 'owner', name: 'Owner', permissions: 1 }, 'roles[0]: slug "owner" cannot name a custom role'],
        [{ slug: 'big', name: 'Big', permissions: 4096 }, 'roles[0]: only the bits in 2047 are known'],
      ] as const) {
        const bad = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: 'Bad roles' }, roles: [role] }, w.auth.admin);
        expect(bad.body).toEqual({ error });
      }
      expect(await projects()).toBe(before);
    });
  });
}
