import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { loadConfig } from '../../../src/server/config/config.ts';

for (const dialect of DIALECTS) {
  describe(`the user's own sessions (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('lists where the user is signed in, marks the current one, and revokes another', async () => {
      const phone = await s.login(ADMIN.login, ADMIN.password);
      const laptop = await s.login(ADMIN.login, ADMIN.password);
      const list = await s.call('GET', '/api/user/sessions', undefined, laptop);
      expect(list.status).toBe(200);
      expect(list.body.length).toBeGreaterThanOrEqual(2);
      const current = list.body.filter((x: { current: boolean }) => x.current);
      expect(current).toHaveLength(1);
      expect(current[0]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{16}$/), ip: expect.any(String), user_agent: expect.any(String) });
      const phoneId = (await s.call('GET', '/api/user/sessions', undefined, phone)).body.find((x: { current: boolean }) => x.current).id;
      expect((await s.call('DELETE', `/api/user/sessions/${phoneId}`, undefined, laptop)).status).toBe(204);
      expect((await s.call('GET', '/api/user', undefined, phone)).status).toBe(401);
      expect((await s.call('GET', '/api/user', undefined, laptop)).status).toBe(200);
      const after = await s.call('GET', '/api/user/sessions', undefined, laptop);
      expect(after.body.map((x: { id: string }) => x.id)).not.toContain(phoneId);
    });

    it("cannot revoke another user's session", async () => {
      await s.call('POST', '/api/users', { username: 'eve', name: 'Eve', email: 'eve@example.test', password: 'eve-password-1' }, await s.login(ADMIN.login, ADMIN.password));
      const eve = await s.login('eve', 'eve-password-1');
      const admin = await s.login(ADMIN.login, ADMIN.password);
      const adminId = (await s.call('GET', '/api/user/sessions', undefined, admin)).body.find((x: { current: boolean }) => x.current).id;
      expect((await s.call('DELETE', `/api/user/sessions/${adminId}`, undefined, eve)).status).toBe(404);
      expect((await s.call('GET', '/api/user', undefined, admin)).status).toBe(200);
    });

    it('ends every other session when the password changes', async () => {
      const other = await s.login(ADMIN.login, ADMIN.password);
      const here = await s.login(ADMIN.login, ADMIN.password);
      const me = (await s.call('GET', '/api/user', undefined, here)).body;
      expect((await s.call('POST', `/api/users/${me.id}/password`, { password: ADMIN.password, current_password: ADMIN.password }, here)).status).toBe(204);
      expect((await s.call('GET', '/api/user', undefined, other)).status).toBe(401);
      expect((await s.call('GET', '/api/user/sessions', undefined, here)).body).toHaveLength(1);
    });
  });
}

describe('sign-in settings', () => {
  it('reads group mappings, OIDC providers and LDAP settings, and refuses bad ones with one line', () => {
    const config = loadConfig({
      SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":3,"role":"manager"},{"group":"admins","admin":true}]',
      SEMAPHORE_OIDC_PROVIDERS: '{"corp":{"provider_url":"https://id.example","client_id":"x","order":2}}',
      SEMAPHORE_LDAP_ENABLE: 'yes', SEMAPHORE_LDAP_SERVER: 'ldap.example:389',
    });
    expect(config.group_mappings).toEqual([{ group: 'ops', project_id: 3, role: 'manager' }, { group: 'admins', admin: true }]);
    expect(config.oidc_providers.corp).toMatchObject({ display_name: 'corp', scopes: ['openid', 'profile', 'email'], email_claim: 'email', order: 2 });
    expect(config.ldap).toMatchObject({ enable: true, server: 'ldap.example:389', searchfilter: '(uid=%s)' });
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","role":"boss","project_id":1}]' })).toThrow(/SEMAPHORE_GROUP_MAPPINGS\[0\]: role/);
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":1}]' })).toThrow(/project_id and role go together/);
    expect(() => loadConfig({ SEMAPHORE_OIDC_PROVIDERS: '{"corp":{"client_id":"x"}}' })).toThrow(/give provider_url/);
    expect(() => loadConfig({ SEMAPHORE_LDAP_ENABLE: 'true' })).toThrow(/ldap_server: required/);
    expect(() => loadConfig({ SEMAPHORE_OIDC_PROVIDERS: '{"corp":{"provider_url":"https://x","client_id":"x","client_secret_file":"/nonexistent/secret"}}' })).toThrow(/client_secret_file: cannot read/);
  });
});
