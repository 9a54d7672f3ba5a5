import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';

for (const dialect of DIALECTS) {
  describe(`project team (${dialect})`, () => {
    let s: TestServer;
    let w: World;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });
    const team = (world: World) => `/api/project/${world.projectId}/users`;
    const roleOf = async (world: World, userId: number) =>
      (await s.deps.db.selectFrom('project_user').select('role').where('project_id', '=', world.projectId).where('user_id', '=', userId).executeTakeFirst())?.role;
    const lastEvent = async (world: World) => (await s.call('GET', `/api/project/${world.projectId}/events/last`, undefined, world.auth.owner)).body[0];

    it('lists members with their role, sortable by the whitelisted columns', async () => {
      w = await buildWorld(s.deps.db);
      const res = await s.call('GET', `${team(w)}?sort=role&order=desc`, undefined, w.auth.guest);
      expect(res.status).toBe(200);
      expect(res.body.map((m: { role: string }) => m.role)).toEqual(['task_runner', 'owner', 'manager', 'guest', 'guest']);
      expect(res.body[0]).toMatchObject({ id: w.users.task_runner.id, username: w.users.task_runner.username, role: 'task_runner' });
      expect(res.text).not.toContain('$2');
      const byName = await s.call('GET', `${team(w)}?sort=password`, undefined, w.auth.guest);
      expect(byName.status).toBe(200);
    });

    it('adds a member with 204 and "User ID <id> added to team"; 409 when already one', async () => {
      w = await buildWorld(s.deps.db);
      const res = await s.call('POST', team(w), { user_id: w.users.spare.id, role: 'manager' }, w.auth.owner);
      expect(res.status).toBe(204);
      expect(await roleOf(w, w.users.spare.id)).toBe('manager');
      expect(await lastEvent(w)).toMatchObject({ description: `User ID ${w.users.spare.id} added to team`, object_type: 'user', object_id: w.users.spare.id, user_id: w.users.owner.id });
      const again = await s.call('POST', team(w), { user_id: w.users.spare.id, role: 'guest' }, w.auth.owner);
      expect(again.status).toBe(409);
      expect(await roleOf(w, w.users.spare.id)).toBe('manager');
    });

    it('refuses an unknown role or user with 400', async () => {
      w = await buildWorld(s.deps.db);
      const badRole = await s.call('POST', team(w), { user_id: w.users.spare.id, role: 'admin' }, w.auth.owner);
      expect(badRole.status).toBe(400);
      expect(badRole.body.error).toBe('role: must be one of owner, manager, task_runner, guest');
      const badUser = await s.call('POST', team(w), { user_id: 999999, role: 'guest' }, w.auth.owner);
      expect(badUser.status).toBe(400);
      expect(await roleOf(w, w.users.spare.id)).toBeUndefined();
    });

    it('changes a role with "Changed role for User ID <id>"; 404 for a non-member', async () => {
      w = await buildWorld(s.deps.db);
      const res = await s.call('PUT', `${team(w)}/${w.users.extra.id}`, { role: 'task_runner' }, w.auth.owner);
      expect(res.status).toBe(204);
      expect(await roleOf(w, w.users.extra.id)).toBe('task_runner');
      expect(await lastEvent(w)).toMatchObject({ description: `Changed role for User ID ${w.users.extra.id}` });
      expect((await s.call('PUT', `${team(w)}/${w.users.spare.id}`, { role: 'guest' }, w.auth.owner)).status).toBe(404);
      expect((await s.call('PUT', `${team(w)}/${w.users.extra.id}`, { role: 'boss' }, w.auth.owner)).status).toBe(400);
    });

    it('removes a member with "User ID <id> removed from team"', async () => {
      w = await buildWorld(s.deps.db);
      expect((await s.call('DELETE', `${team(w)}/${w.users.extra.id}`, undefined, w.auth.owner)).status).toBe(204);
      expect(await roleOf(w, w.users.extra.id)).toBeUndefined();
      expect(await lastEvent(w)).toMatchObject({ description: `User ID ${w.users.extra.id} removed from team` });
      expect((await s.call('DELETE', `${team(w)}/${w.users.extra.id}`, undefined, w.auth.owner)).status).toBe(404);
    });

    it('stops an owner from changing their own role or removing themself', async () => {
      w = await buildWorld(s.deps.db);
      expect((await s.call('PUT', `${team(w)}/${w.users.owner.id}`, { role: 'guest' }, w.auth.owner)).status).toBe(400);
      expect((await s.call('DELETE', `${team(w)}/${w.users.owner.id}`, undefined, w.auth.owner)).status).toBe(400);
      expect((await s.call('DELETE', `/api/project/${w.projectId}/me`, undefined, w.auth.owner)).status).toBe(400);
      expect(await roleOf(w, w.users.owner.id)).toBe('owner');
    });

    it('lets a member leave the project, after which it is invisible to them', async () => {
      w = await buildWorld(s.deps.db);
      expect((await s.call('DELETE', `/api/project/${w.projectId}/me`, undefined, w.auth.guest)).status).toBe(204);
      expect(await roleOf(w, w.users.guest.id)).toBeUndefined();
      expect((await s.call('GET', `/api/project/${w.projectId}`, undefined, w.auth.guest)).status).toBe(404);
      expect(await lastEvent(w)).toMatchObject({ description: `User ID ${w.users.guest.id} removed from team`, user_id: w.users.guest.id });
    });

    it('lets an admin owner leave', async () => {
      w = await buildWorld(s.deps.db);
      await s.call('POST', team(w), { user_id: w.users.admin.id, role: 'owner' }, w.auth.owner);
      expect((await s.call('DELETE', `/api/project/${w.projectId}/me`, undefined, w.auth.admin)).status).toBe(204);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`concurrent team changes (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('answers racing adds of the same member with one 204 and 409s, never 500', async () => {
      const w = await buildWorld(s.deps.db);
      const statuses = await Promise.all(Array.from({ length: 4 }, () =>
        s.call('POST', `/api/project/${w.projectId}/users`, { user_id: w.users.spare.id, role: 'guest' }, w.auth.owner).then((r) => r.status)));
      expect(statuses.filter((st) => st === 204)).toHaveLength(1);
      expect(statuses.filter((st) => st === 409)).toHaveLength(3);
    });
  });
}
