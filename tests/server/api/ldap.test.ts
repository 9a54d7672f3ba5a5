import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { LDAP_BASE, LDAP_SERVICE, slapdAvailable, startSlapd, type Slapd } from '../../support/slapd.ts';

const ALICE = { uid: 'alice', cn: 'Alice Ops', mail: 'alice@corp.test', password: 'alice-dir-password-1', groups: ['ops'] };
const BOB = { uid: 'bob', cn: 'Bob Dev', mail: 'bob@corp.test', password: 'bob-dir-password-1', groups: ['devs', 'admins'] };
/** in the directory with the same name as a local account */
const LOCAL_TWIN = { uid: 'admin', cn: 'Directory Admin', mail: 'dir-admin@corp.test', password: 'twin-password-1', groups: [] };

const runLdap = slapdAvailable() ? describe : describe.skip;

for (const dialect of DIALECTS) {
  runLdap(`LDAP sign-in against a real slapd (${dialect})`, () => {
    let slapd: Slapd;
    let s: TestServer;
    let admin: Auth;
    let opsProject: number;
    let devProject: number;

    beforeAll(async () => {
      slapd = await startSlapd([ALICE, BOB, LOCAL_TWIN]);
      // the projects exist before the server reads the mapping, so create them through a first server
      s = await startTestServer(dialect, {
        SEMAPHORE_LDAP_ENABLE: 'true', SEMAPHORE_LDAP_SERVER: slapd.server,
        SEMAPHORE_LDAP_BIND_DN: LDAP_SERVICE.dn, SEMAPHORE_LDAP_BIND_PASSWORD: LDAP_SERVICE.password,
        SEMAPHORE_LDAP_SEARCH_DN: `ou=people,${LDAP_BASE}`, SEMAPHORE_LDAP_SEARCH_FILTER: '(&(objectClass=inetOrgPerson)(uid=%s))',
        SEMAPHORE_LDAP_GROUP_SEARCH_DN: `ou=groups,${LDAP_BASE}`,
        SEMAPHORE_GROUP_MAPPINGS: JSON.stringify([
          { group: 'ops', project_id: 1, role: 'manager' },
          { group: 'devs', project_id: 2, role: 'task_runner' },
          { group: 'admins', admin: true },
        ]),
      });
      admin = await s.login(ADMIN.login, ADMIN.password);
      opsProject = (await s.call('POST', '/api/projects', { name: 'Ops' }, admin)).body.id;
      devProject = (await s.call('POST', '/api/projects', { name: 'Dev' }, admin)).body.id;
      expect([opsProject, devProject]).toEqual([1, 2]);
    });
    afterAll(async () => {
      await s?.close();
      await slapd?.stop();
    });

    it('signs a directory user in, creating an external user from the mapped attributes', async () => {
      const alice = await s.login('alice', ALICE.password);
      const me = await s.call('GET', '/api/user', undefined, alice);
      expect(me.body).toMatchObject({ username: 'alice', name: 'Alice Ops', email: 'alice@corp.test', external: true, admin: false });
    });

    it('gives the project role the group maps to, and the admin flag to the admins group', async () => {
      const alice = await s.login('alice', ALICE.password);
      const projects = await s.call('GET', '/api/projects', undefined, alice);
      expect(projects.body.map((p: { name: string }) => p.name)).toEqual(['Ops']);
      const role = await s.call('GET', `/api/project/${opsProject}/role`, undefined, alice);
      expect(role.body.role).toBe('manager');
      const bob = await s.login('BOB', BOB.password);
      expect((await s.call('GET', '/api/user', undefined, bob)).body.admin).toBe(true);
      expect((await s.call('GET', `/api/project/${devProject}/role`, undefined, bob)).body.role).toBe('task_runner');
    });

    it('takes a mapped role back at the next sign-in when the user no longer has the group', async () => {
      await s.login('alice', ALICE.password);
      const aliceId = (await s.deps.db.selectFrom('user').select('id').where('username', '=', 'alice').executeTakeFirstOrThrow()).id;
      // an admin adds alice to the dev project by hand: the directory says otherwise, so it goes
      expect((await s.call('POST', `/api/project/${devProject}/users`, { user_id: aliceId, role: 'owner' }, admin)).status).toBe(204);
      const before = await s.login('alice', 'x').catch(() => null);
      expect(before).toBeNull();
      const stillOwner = await s.deps.db.selectFrom('project_user').select('role').where('user_id', '=', aliceId).where('project_id', '=', devProject).executeTakeFirst();
      expect(stillOwner?.role).toBe('owner');
      const alice = await s.login('alice', ALICE.password);
      expect((await s.call('GET', `/api/project/${devProject}/role`, undefined, alice)).status).toBe(404);
      expect((await s.call('GET', `/api/project/${opsProject}/role`, undefined, alice)).body.role).toBe('manager');
    });

    it('refuses a wrong directory password with an empty 401, and an external user cannot use a local password', async () => {
      const wrong = await s.call('POST', '/api/auth/login', { auth: 'alice', password: 'not-her-password' });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toBe('');
      expect((await s.call('POST', '/api/auth/login', { auth: 'alice', password: '' })).status).toBe(400);
    });

    it('does not take over a local account with the same name', async () => {
      const res = await s.call('POST', '/api/auth/login', { auth: 'admin', password: LOCAL_TWIN.password });
      expect(res.status).toBe(401);
      const local = await s.deps.db.selectFrom('user').selectAll().where('username', '=', 'admin').executeTakeFirstOrThrow();
      expect(local).toMatchObject({ external: 0, email: ADMIN.email });
    });

    it('falls back to local accounts for logins the directory does not know', async () => {
      await s.call('POST', '/api/users', { username: 'carol', name: 'Carol', email: 'carol@example.test', password: 'carol-password-1' }, admin);
      expect((await s.call('GET', '/api/user', undefined, await s.login('carol', 'carol-password-1'))).body.username).toBe('carol');
    });

    it('treats filter syntax in the login as data (no LDAP injection)', async () => {
      const res = await s.call('POST', '/api/auth/login', { auth: '*', password: ALICE.password });
      expect(res.status).toBe(401);
      const res2 = await s.call('POST', '/api/auth/login', { auth: 'al*)(uid=*', password: ALICE.password });
      expect(res2.status).toBe(401);
    });

    it('never shows the bind password in a response or the log', async () => {
      const warn = vi.spyOn(console, 'warn');
      const error = vi.spyOn(console, 'error');
      const responses = [
        await s.call('GET', '/api/auth/login'), await s.call('GET', '/api/info', undefined, admin),
        await s.call('POST', '/api/auth/login', { auth: 'alice', password: 'wrong' }),
      ];
      for (const res of responses) expect(res.text).not.toContain(LDAP_SERVICE.password);
      const logged = [...warn.mock.calls, ...error.mock.calls].flat().map(String).join('\n');
      expect(logged).not.toContain(LDAP_SERVICE.password);
      warn.mockRestore();
      error.mockRestore();
    });
  });
}
