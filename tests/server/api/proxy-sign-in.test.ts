import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { proxySettings, startJwtProxy, type AssertionOptions, type JwtProxy } from '../../support/jwt-proxy.ts';
import { loadConfig } from '../../../src/server/config/config.ts';

const POMERIUM = 'x-pomerium-jwt-assertion';
const CLOUDFLARE = 'cf-access-jwt-assertion';
const dana = (extra: Record<string, unknown> = {}): AssertionOptions => ({
  claims: { sub: 'proxy-user-dana', email: 'dana@corp.test', name: 'Dana Proxy', groups: ['ops'], ...extra },
});

/**
 * Sign-in behind an identity-aware proxy (Semaphore's "JWT proxy authentication", issue 51 item 1):
 * a test proxy signs with its own key and serves its JWKS over HTTP; only its valid tokens sign in.
 */
for (const dialect of DIALECTS) {
  describe(`sign-in by a proxy's JWT (${dialect})`, () => {
    let proxy: JwtProxy;
    let s: TestServer;
    const me = (token: string, header = POMERIUM) => s.call('GET', '/api/user', undefined, { [header]: token });

    beforeAll(async () => {
      proxy = await startJwtProxy();
      s = await startTestServer(dialect, proxySettings(proxy, { SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","admin":true}]' }));
    });
    afterAll(async () => {
      await s?.close();
      await proxy?.stop();
    });

    it('signs in a valid token: the user is created as external from its claims, groups mapped to roles, the identity linked', async () => {
      const res = await me(await proxy.sign(dana()));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ username: 'dana@corp.test', name: 'Dana Proxy', email: 'dana@corp.test', external: true, admin: true });
      const link = await s.deps.db.selectFrom('external_identity').select(['provider', 'subject']).where('user_id', '=', res.body.id).execute();
      expect(link).toEqual([{ provider: 'jwt', subject: 'proxy-user-dana' }]);
      // a later token of the same identity finds the same user; its groups decide the roles again
      const again = await me(await proxy.sign(dana({ groups: [], name: 'Dana P.' })), CLOUDFLARE);
      expect(again.body).toMatchObject({ id: res.body.id, name: 'Dana P.', admin: false });
    });

    it('the JWKS is fetched once and kept', async () => {
      const before = proxy.fetches();
      expect(before).toBeGreaterThan(0);
      expect((await me(await proxy.sign(dana({ email: 'erin@corp.test', sub: 'erin' })))).status).toBe(200);
      expect(proxy.fetches()).toBe(before);
    });

    it.each([
      ['expired', (p: JwtProxy) => p.sign({ ...dana(), expiresIn: -600 })],
      ['for another audience', (p: JwtProxy) => p.sign({ ...dana(), audience: 'https://other.test' })],
      ['from another issuer', (p: JwtProxy) => p.sign({ ...dana(), issuer: 'https://evil.test' })],
      ['unsigned (alg none)', async (p: JwtProxy) => p.unsigned(dana())],
      ['signed by another key', (p: JwtProxy) => p.signWithStrangerKey(dana())],
      ['not a JWT', async () => 'not-a-token'],
    ])('refuses a token %s with 401, and a session cookie beside it does not help', async (_, make) => {
      const admin = await s.login(ADMIN.login, ADMIN.password);
      const res = await s.call('GET', '/api/user', undefined, { ...admin, [POMERIUM]: await make(proxy) });
      expect(res.status).toBe(401);
    });

    it('refuses a token whose email belongs to a local account', async () => {
      const res = await me(await proxy.sign({ claims: { sub: 'x', email: ADMIN.email } }));
      expect(res.status).toBe(401);
      const admin = await s.deps.db.selectFrom('user').select(['id', 'external']).where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
      expect(await s.deps.db.selectFrom('external_identity').select('id').where('user_id', '=', admin.id).execute()).toEqual([]);
    });

    it('without the header nothing changes: cookie and bearer sign in as before, nothing at all is 401', async () => {
      const admin = await s.login(ADMIN.login, ADMIN.password);
      expect((await s.call('GET', '/api/user', undefined, admin)).body.username).toBe(ADMIN.login);
      expect((await s.call('GET', '/api/user')).status).toBe(401);
    });

    it('a write signed in by the header from a foreign page is refused even with a bearer token beside it', async () => {
      const token = await proxy.sign(dana());
      const res = await s.call('POST', '/api/projects', { name: 'x' }, { [POMERIUM]: token, authorization: 'Bearer whatever', origin: 'https://evil.test' });
      expect(res.status).toBe(403);
    });
  });
}

describe('proxy sign-in settings', () => {
  it('reads auth.jwt under Semaphore names; a configured header replaces the well-known ones', async () => {
    const proxy = await startJwtProxy();
    const s = await startTestServer(DIALECTS[0]!, proxySettings(proxy, { SEMAPHORE_JWT_AUTH_HEADER: 'X-Auth-Assertion' }));
    try {
      const token = await proxy.sign(dana());
      expect((await s.call('GET', '/api/user', undefined, { 'x-auth-assertion': token })).status).toBe(200);
      expect((await s.call('GET', '/api/user', undefined, { [POMERIUM]: token })).status).toBe(401);
    } finally {
      await s.close();
      await proxy.stop();
    }
  });

  it('off by default; on without a JWKS URL stops start-up', () => {
    expect(loadConfig({}).proxy_auth.enabled).toBe(false);
    expect(() => loadConfig({ SEMAPHORE_JWT_AUTH_ENABLED: 'true' })).toThrow(/auth\.jwt\.jwks_url/);
  });

  it('a header sent while proxy sign-in is off is ignored', async () => {
    const proxy = await startJwtProxy();
    const s = await startTestServer(DIALECTS[0]!);
    try {
      const admin = await s.login(ADMIN.login, ADMIN.password);
      expect((await s.call('GET', '/api/user', undefined, { ...admin, [POMERIUM]: await proxy.sign(dana()) })).body.username).toBe(ADMIN.login);
    } finally {
      await s.close();
      await proxy.stop();
    }
  });
});
