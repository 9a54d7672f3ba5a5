import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { LDAP_BASE, LDAP_SERVICE, slapdAvailable, startSlapd, type Slapd } from '../../support/slapd.ts';
import { provisionDirectoryUser, provisionOidcUser, type ExternalIdentity } from '../../../src/server/auth/external-users.ts';
import { now } from '../../../src/server/lib/time.ts';

const ALICE = { uid: 'alice', cn: 'Alice Ops', mail: 'alice@corp.test', password: 'alice-dir-password-1', groups: [] };
/** the directory entry of the local user carol: another uid, her email */
const CAROL_DIR = { uid: 'carol.dir', cn: 'Carol', mail: 'carol@example.test', password: 'carol-dir-password-1', groups: [] };
const MALLORY = { uid: 'mallory', cn: 'Mallory', mail: 'mallory@corp.test', password: 'mallory-dir-password-1', groups: [] };
/** an account an admin made as external before its first sign-in */
const PRE = { uid: 'pre', cn: 'Pre Made', mail: 'pre@corp.test', password: 'pre-dir-password-1', groups: [] };
const CAROL_PASSWORD = 'carol-local-password-1';

const runLdap = slapdAvailable() ? describe : describe.skip;

const identity = (username: string, email: string): ExternalIdentity => ({ username, name: username, email, groups: null });

/**
 * Identity links (Semaphore 2.20's external identity linking) against a real slapd: a user's
 * links are listed and removed by the user or an admin, a signed-in account links its LDAP
 * identity by binding with the directory password, and `external_auth_email_matching` (never by
 * default) decides whether an unlinked LDAP/OIDC identity may take an existing user.
 */
for (const dialect of DIALECTS) {
  runLdap(`identity links (${dialect})`, () => {
    let slapd: Slapd;
    let s: TestServer;
    let admin: Auth;
    let carol: Auth;
    let carolId: number;
    const idOf = async (username: string) => (await s.deps.db.selectFrom('user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const external = (username: string, email: string) => s.deps.db.insertInto('user')
      .values({ created: now(), username, name: username, email, password: '', admin: 0, external: 1, alert: 0 }).returning('id').executeTakeFirstOrThrow();
    const links = (userId: number) => s.deps.db.selectFrom('external_identity').select(['provider', 'subject']).where('user_id', '=', userId).orderBy('id').execute();

    beforeAll(async () => {
      slapd = await startSlapd([ALICE, CAROL_DIR, MALLORY, PRE]);
      s = await startTestServer(dialect, {
        SEMAPHORE_LDAP_ENABLE: 'true', SEMAPHORE_LDAP_SERVER: slapd.server,
        SEMAPHORE_LDAP_BIND_DN: LDAP_SERVICE.dn, SEMAPHORE_LDAP_BIND_PASSWORD: LDAP_SERVICE.password,
        SEMAPHORE_LDAP_SEARCH_DN: `ou=people,${LDAP_BASE}`, SEMAPHORE_LDAP_SEARCH_FILTER: '(&(objectClass=inetOrgPerson)(uid=%s))',
      });
      admin = await s.login(ADMIN.login, ADMIN.password);
      const made = await s.call('POST', '/api/users', { username: 'carol', name: 'Carol', email: CAROL_DIR.mail, password: CAROL_PASSWORD }, admin);
      expect(made.status, made.text).toBe(201);
      carolId = made.body.id;
      carol = await s.login('carol', CAROL_PASSWORD);
    });
    afterAll(async () => {
      await s?.close();
      await slapd?.stop();
    });

    it('by default an LDAP sign-in does not take an existing external user by its name or email', async () => {
      const pre = await external('pre', PRE.mail);
      const res = await s.call('POST', '/api/auth/login', { auth: 'pre', password: PRE.password });
      expect(res.status).toBe(401);
      expect(await links(pre.id)).toEqual([]);
      expect(await s.deps.db.selectFrom('user').select('id').where('email', '=', PRE.mail).execute()).toHaveLength(1);
    });

    it('lists a user\'s links to the user and to admins, on Semaphore\'s shape; another user gets 401', async () => {
      const alice = await s.login('alice', ALICE.password);
      const aliceId = await idOf('alice');
      const own = await s.call('GET', `/api/users/${aliceId}/identities`, undefined, alice);
      expect(own.status).toBe(200);
      expect(own.body).toEqual([{ id: expect.any(Number), user_id: aliceId, type: 'ldap', provider: 'ldap', external_uid: 'alice', created: expect.any(String) }]);
      expect((await s.call('GET', `/api/users/${aliceId}/identities`, undefined, admin)).body).toEqual(own.body);
      expect((await s.call('GET', `/api/users/${aliceId}/identities`, undefined, carol)).status).toBe(401);
      expect((await s.call('GET', '/api/users/999999/identities', undefined, admin)).status).toBe(404);
      expect((await s.call('GET', '/api/users/abc/identities', undefined, admin)).status).toBe(400);
    });

    it('unlinks by type and provider; an external user keeps its last link (409); bad or unknown parts answer 400 / 404', async () => {
      const alice = await s.login('alice', ALICE.password);
      const aliceId = await idOf('alice');
      const last = await s.call('DELETE', `/api/users/${aliceId}/identities/ldap/ldap`, undefined, alice);
      expect(last.status).toBe(409);
      expect(last.body.error).toContain('last linked identity');
      await s.deps.db.insertInto('external_identity').values({ user_id: aliceId, provider: 'oidc:corp', subject: 'alice-sub', created: now() }).execute();
      expect((await s.call('DELETE', `/api/users/${aliceId}/identities/saml/corp`, undefined, alice)).status).toBe(400);
      expect((await s.call('DELETE', `/api/users/${aliceId}/identities/oidc/other`, undefined, alice)).status).toBe(404);
      expect((await s.call('DELETE', `/api/users/${aliceId}/identities/oidc/corp`, undefined, carol)).status).toBe(401);
      expect((await s.call('DELETE', `/api/users/${aliceId}/identities/ldap/ldap`, undefined, alice)).status).toBe(204);
      expect(await links(aliceId)).toEqual([{ provider: 'oidc:corp', subject: 'alice-sub' }]);
      // an admin takes the OIDC link back too, and puts the LDAP one back for the cases below
      await s.deps.db.insertInto('external_identity').values({ user_id: aliceId, provider: 'ldap', subject: 'alice', created: now() }).execute();
      expect((await s.call('DELETE', `/api/users/${aliceId}/identities/oidc/corp`, undefined, admin)).status).toBe(204);
      expect(await links(aliceId)).toEqual([{ provider: 'ldap', subject: 'alice' }]);
    });

    it('a signed-in account links its own LDAP identity by binding with the directory password; bad bodies 400, a wrong password 401', async () => {
      for (const body of [{}, { username: 'carol.dir' }, { password: 'x' }, { username: 5, password: 'x' }, { username: 'carol.dir', password: '' }, { username: 'x'.repeat(256), password: 'x' }, { username: 'carol.dir', password: 'x', provider: 'corp' }]) {
        const res = await s.call('POST', '/api/user/identities/ldap', body, carol);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error, JSON.stringify(body)).toBeTruthy();
      }
      expect((await s.call('POST', '/api/user/identities/ldap', { username: 'carol.dir', password: 'wrong' }, carol)).status).toBe(401);
      // someone else's entry, with that person's right password: not this account's
      const other = await s.call('POST', '/api/user/identities/ldap', { username: 'mallory', password: MALLORY.password }, carol);
      expect(other.status).toBe(403);
      expect(await links(carolId)).toEqual([]);
      const linked = await s.call('POST', '/api/user/identities/ldap', { username: 'carol.dir', password: CAROL_DIR.password, provider: 'ldap', remember: true }, carol);
      expect(linked.status, linked.text).toBe(204);
      expect((await s.call('POST', '/api/user/identities/ldap', { username: 'CAROL.DIR', password: CAROL_DIR.password }, carol)).status).toBe(204);
      expect(await links(carolId)).toEqual([{ provider: 'ldap', subject: 'carol.dir' }]);
      // the link now signs the local account in through the directory
      const viaLdap = await s.login('carol.dir', CAROL_DIR.password);
      expect((await s.call('GET', '/api/user', undefined, viaLdap)).body).toMatchObject({ id: carolId, username: 'carol', external: false });
      expect(await s.deps.db.selectFrom('user').select('id').where('email', '=', CAROL_DIR.mail).execute()).toHaveLength(1);
    });

    it('refuses a directory identity already linked to another user (409)', async () => {
      // `pre` matches this local account by username; the identity belongs to an external user
      const holder = await external('pre-holder', 'holder@corp.test');
      await s.deps.db.insertInto('external_identity').values({ user_id: holder.id, provider: 'ldap', subject: 'pre', created: now() }).execute();
      await s.deps.db.updateTable('user').set({ username: 'pre-old' }).where('username', '=', 'pre').execute();
      expect((await s.call('POST', '/api/users', { username: 'pre', name: 'Pre local', email: 'pre-local@example.test', password: 'pre-local-password-1' }, admin)).status).toBe(201);
      const local = await s.login('pre', 'pre-local-password-1');
      const res = await s.call('POST', '/api/user/identities/ldap', { username: 'pre', password: PRE.password }, local);
      expect(res.status).toBe(409);
      expect(res.body.error).toContain('linked to another user');
    });

    it('external_auth_email_matching: never refuses, auto adopts an unlinked external user once, always across providers; a local account never', async () => {
      const { db } = s.deps;
      const ext = await external('matchee', 'matchee@corp.test');
      const oidc = (provider: string, subject: string) => ({ provider: `oidc:${provider}`, subject });
      expect(await provisionOidcUser(db, identity('m1', 'matchee@corp.test'), oidc('corp', 'm-1'), true, [], 'never')).toEqual({ refused: 'matching_off' });
      expect(await provisionDirectoryUser(db, identity('matchee', 'matchee@corp.test'), [], 'never')).toBeNull();
      expect(await provisionOidcUser(db, identity('m1', 'matchee@corp.test'), oidc('corp', 'm-1'), false, [], 'auto')).toEqual({ refused: 'unverified_email' });
      const adopted = await provisionOidcUser(db, identity('m1', 'matchee@corp.test'), oidc('corp', 'm-1'), true, [], 'auto');
      expect(adopted).toEqual({ user: expect.objectContaining({ id: ext.id }) });
      // auto: once linked, another provider's identity with the same email is refused; always lets it join
      expect(await provisionOidcUser(db, identity('m2', 'matchee@corp.test'), oidc('other', 'm-2'), true, [], 'auto')).toEqual({ refused: 'linked_elsewhere' });
      expect(await provisionDirectoryUser(db, identity('matchee', 'matchee@corp.test'), [], 'auto')).toBeNull();
      expect(await provisionOidcUser(db, identity('m2', 'matchee@corp.test'), oidc('other', 'm-2'), true, [], 'always')).toEqual({ user: expect.objectContaining({ id: ext.id }) });
      // always: still one identity per provider and user
      expect(await provisionOidcUser(db, identity('m3', 'matchee@corp.test'), oidc('corp', 'm-3'), true, [], 'always')).toEqual({ refused: 'linked_elsewhere' });
      expect((await provisionDirectoryUser(db, identity('matchee', 'matchee@corp.test'), [], 'always'))?.id).toBe(ext.id);
      expect(await links(ext.id)).toEqual([{ provider: 'oidc:corp', subject: 'm-1' }, { provider: 'oidc:other', subject: 'm-2' }, { provider: 'ldap', subject: 'matchee' }]);
      expect(await provisionOidcUser(db, identity('a', ADMIN.email), oidc('corp', 'adm'), true, [], 'always')).toEqual({ refused: 'local_account' });
      expect(await provisionDirectoryUser(db, identity('admin', 'x@corp.test'), [], 'always')).toBeNull();
      // a linked identity signs in by its link whatever the mode
      expect(await provisionOidcUser(db, identity('m1', 'changed@corp.test'), oidc('corp', 'm-1'), false, [], 'never')).toEqual({ user: expect.objectContaining({ id: ext.id }) });
    });
  });
}
