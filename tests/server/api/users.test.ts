import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';

for (const dialect of DIALECTS) {
  describe(`users (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let w: World;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      w = await buildWorld(s.deps.db);
    });
    afterAll(async () => { await s.close(); });

    const newUser = (tag: string, extra: Record<string, unknown> = {}) => ({
      name: `User ${tag}`, username: `user-${tag}`, email: `user-${tag}@example.test`, password: 'pass-1234', ...extra,
    });

    it('shows admins full user objects and others only id, username and name', async () => {
      const full = await s.call('GET', '/api/users', undefined, admin);
      expect(full.status).toBe(200);
      expect(full.body.find((u: { username: string }) => u.username === ADMIN.login)).toMatchObject({ email: ADMIN.email, admin: true });
      const short = await s.call('GET', '/api/users', undefined, w.auth.guest);
      expect(short.status).toBe(200);
      for (const u of short.body) expect(Object.keys(u).sort()).toEqual(['id', 'name', 'username']);
      expect(full.text).not.toContain('$2');
    });

    it('creates a user with a bcrypt-hashed password who can then sign in', async () => {
      const res = await s.call('POST', '/api/users', newUser('a', { alert: true }), admin);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ username: 'user-a', name: 'User a', email: 'user-a@example.test', admin: false, external: false, alert: true });
      expect(res.body.password).toBeUndefined();
      const row = await s.deps.db.selectFrom('user').selectAll().where('username', '=', 'user-a').executeTakeFirstOrThrow();
      expect(row.password).toMatch(/^\$2[aby]\$/);
      await s.login('user-a', 'pass-1234');
    });

    it('refuses a taken username or email (any case) with 400 naming the field', async () => {
      await s.call('POST', '/api/users', newUser('b'), admin);
      const sameName = await s.call('POST', '/api/users', newUser('b', { username: 'USER-B', email: 'other-b@example.test' }), admin);
      expect(sameName.status).toBe(400);
      expect(sameName.body.error).toBe('username: "USER-B" is already taken');
      const sameEmail = await s.call('POST', '/api/users', newUser('b2', { email: 'User-B@example.test' }), admin);
      expect(sameEmail.status).toBe(400);
      expect(sameEmail.body.error).toMatch(/^email: /);
      expect(await s.deps.db.selectFrom('user').select('id').where('username', 'in', ['USER-B', 'user-b2']).execute()).toEqual([]);
    });

    it('words validation errors as "<field>: <problem>"', async () => {
      const cases: [unknown, string][] = [
        [{ username: 'x1', email: 'x1@example.test', password: 'p' }, 'name: required'],
        [{ name: 'X', email: 'x2@example.test', password: 'p' }, 'username: required'],
        [{ name: 'X', username: 'x3', password: 'p' }, 'email: required'],
        [{ name: 'X', username: 'x5', email: 'not-an-email', password: 'p' }, 'email: must be an email address'],
        [{ name: ' ', username: 'x6', email: 'x6@example.test', password: 'p' }, 'name: required'],
      ];
      for (const [body, error] of cases) {
        const res = await s.call('POST', '/api/users', body, admin);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe(error);
      }
    });

    it('creates a local user without a password, as Semaphore does; it cannot sign in with an empty one', async () => {
      for (const [username, password] of [['nopass-a', undefined], ['nopass-b', '']] as const) {
        const res = await s.call('POST', '/api/users', { name: username, username, email: `${username}@example.test`, ...(password === undefined ? {} : { password }) }, admin);
        expect(res.status).toBe(201);
        expect([400, 401]).toContain((await s.call('POST', '/api/auth/login', { auth: username, password: '' })).status);
        expect((await s.call('POST', '/api/auth/login', { auth: username, password: 'anything-1' })).status).toBe(401);
      }
    });

    it('creates external users without a password and refuses one given for them', async () => {
      const ok = await s.call('POST', '/api/users', newUser('ext', { password: undefined, external: true }), admin);
      expect(ok.status).toBe(201);
      expect(ok.body.external).toBe(true);
      const withPassword = await s.call('POST', '/api/users', newUser('ext2', { external: true }), admin);
      expect(withPassword.status).toBe(400);
    });

    it('keeps the username and email of an external user and refuses to set its password', async () => {
      const ext = (await s.call('POST', '/api/users', newUser('ext3', { password: undefined, external: true }), admin)).body;
      const rename = await s.call('PUT', `/api/users/${ext.id}`, { name: 'X', username: 'renamed', email: ext.email }, admin);
      expect(rename.status).toBe(400);
      expect(rename.body.error).toMatch(/^username: /);
      const password = await s.call('POST', `/api/users/${ext.id}/password`, { password: 'whatever' }, admin);
      expect(password.status).toBe(400);
      const rename2 = await s.call('PUT', `/api/users/${ext.id}`, { name: 'New name', username: ext.username, email: ext.email }, admin);
      expect(rename2.status).toBe(204);
    });

    it('lets a user edit themself but not their own admin flag', async () => {
      const me = w.users.guest;
      const ok = await s.call('PUT', `/api/users/${me.id}`, { name: 'Guest Renamed', username: me.username, email: me.email, alert: true }, w.auth.guest);
      expect(ok.status).toBe(204);
      const row = await s.deps.db.selectFrom('user').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: 'Guest Renamed' });
      expect(Boolean(row.alert)).toBe(true);
      const promote = await s.call('PUT', `/api/users/${me.id}`, { name: 'G', username: me.username, email: me.email, admin: true }, w.auth.guest);
      expect(promote.status).toBe(401);
      const adminRow = await s.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
      const demote = await s.call('PUT', `/api/users/${adminRow.id}`, { name: 'A', username: ADMIN.login, email: ADMIN.email, admin: false }, admin);
      expect(demote.status).toBe(401);
      expect(Boolean((await s.deps.db.selectFrom('user').select('admin').where('id', '=', me.id).executeTakeFirstOrThrow()).admin)).toBe(false);
    });

    it('lets an admin grant the admin flag to someone else', async () => {
      const u = (await s.call('POST', '/api/users', newUser('promoted'), admin)).body;
      const res = await s.call('PUT', `/api/users/${u.id}`, { name: u.name, username: u.username, email: u.email, admin: true }, admin);
      expect(res.status).toBe(204);
      expect((await s.call('GET', `/api/users/${u.id}`, undefined, admin)).body.admin).toBe(true);
    });

    it('stores can_create_project set by an admin, which then lets that user create a project', async () => {
      const u = (await s.call('POST', '/api/users', newUser('creator', { can_create_project: true }), admin)).body;
      expect(u.can_create_project).toBe(true);
      const creator = await s.login('user-creator', 'pass-1234');
      expect((await s.call('GET', '/api/user', undefined, creator)).body.can_create_project).toBe(true);
      const made = await s.call('POST', '/api/projects', { name: 'Made by creator' }, creator);
      expect(made.status).toBe(201);
      const off = await s.call('PUT', `/api/users/${u.id}`, { name: u.name, username: u.username, email: u.email, can_create_project: false }, admin);
      expect(off.status).toBe(204);
      expect((await s.call('POST', '/api/projects', { name: 'Refused' }, creator)).status).toBe(401);
      expect(Boolean((await s.deps.db.selectFrom('user').select('can_create_project').where('id', '=', u.id).executeTakeFirstOrThrow()).can_create_project)).toBe(false);
    });

    it('ignores can_create_project sent by a non-admin for themself', async () => {
      const me = w.users.guest;
      const res = await s.call('PUT', `/api/users/${me.id}`, { name: 'Guest', username: me.username, email: me.email, can_create_project: true }, w.auth.guest);
      expect(res.status).toBe(204);
      expect(Boolean((await s.deps.db.selectFrom('user').select('can_create_project').where('id', '=', me.id).executeTakeFirstOrThrow()).can_create_project)).toBe(false);
      expect((await s.call('POST', '/api/projects', { name: 'Not allowed' }, w.auth.guest)).status).toBe(401);
    });

    it('answers 404 for an unknown user id and 400 for a non-numeric one', async () => {
      expect((await s.call('GET', '/api/users/999999', undefined, admin)).status).toBe(404);
      expect((await s.call('GET', '/api/users/abc', undefined, admin)).status).toBe(400);
    });

    it('changes a password: the new one signs in, the old one does not, other sessions end', async () => {
      const u = (await s.call('POST', '/api/users', newUser('pw'), admin)).body;
      const own = await s.login('user-pw', 'pass-1234');
      const other = await s.login('user-pw', 'pass-1234');
      const res = await s.call('POST', `/api/users/${u.id}/password`, { password: 'brand-new-1', current_password: 'pass-1234' }, own);
      expect(res.status).toBe(204);
      expect((await s.call('GET', '/api/user', undefined, own)).status).toBe(200);
      expect((await s.call('GET', '/api/user', undefined, other)).status).toBe(401);
      expect((await s.call('POST', '/api/auth/login', { auth: 'user-pw', password: 'pass-1234' })).status).toBe(401);
      await s.login('user-pw', 'brand-new-1');
      const empty = await s.call('POST', `/api/users/${u.id}/password`, { password: '' }, admin);
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe('password: required');
    });

    it('deletes a user together with memberships, sessions and tokens, keeping their events', async () => {
      const world = await buildWorld(s.deps.db);
      const gone = world.users.manager;
      const res = await s.call('DELETE', `/api/users/${gone.id}`, undefined, admin);
      expect(res.status).toBe(204);
      expect(await s.deps.db.selectFrom('project_user').select('role').where('user_id', '=', gone.id).execute()).toEqual([]);
      expect(await s.deps.db.selectFrom('api_token').select('prefix').where('user_id', '=', gone.id).execute()).toEqual([]);
      expect((await s.call('GET', '/api/user', undefined, world.auth.manager)).status).toBe(401);
      const audit = (await s.call('GET', '/api/audit?object_type=user', undefined, admin)).body.rows;
      expect(audit[0]).toMatchObject({ object_type: 'user', object_id: gone.id, description: `User ID ${gone.id} deleted` });
    });

    it('records project-less events naming users by id only, in the audit trail and not in the activity log', async () => {
      const u = (await s.call('POST', '/api/users', newUser('ev'), admin)).body;
      const audit = (await s.call('GET', '/api/audit?object_type=user', undefined, admin)).body.rows;
      const created = audit.find((e: { object_id: number; description: string }) => e.object_id === u.id && e.description.endsWith('created'));
      expect(created).toMatchObject({ project_id: null, object_type: 'user', description: `User ID ${u.id} created` });
      // as Semaphore's, /api/events holds projects' events only
      const events = (await s.call('GET', '/api/events/last', undefined, admin)).body;
      expect(events.filter((e: { project_id: number | null }) => e.project_id === null)).toEqual([]);
    });
  });
}
