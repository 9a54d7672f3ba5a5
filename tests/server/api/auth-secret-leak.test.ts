import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { captureLogs, expectNoSecrets, storedSecretForms } from '../../support/secrets.ts';
import { startSession } from '../../../src/server/auth/sessions.ts';
import { totpCode } from '../../support/totp.ts';

const BIND_PASSWORD = 'ldap-bind-password-4e1d';
const CLIENT_SECRET = 'oidc-client-secret-9a0b';

for (const dialect of DIALECTS) {
  describe(`no sign-in secret leaves the server (${dialect})`, () => {
    let s: TestServer;
    const responses: string[] = [];
    const logs: string[] = [];
    let totpSecret = '';
    let recoveryCode = '';

    beforeAll(async () => {
      s = await startTestServer(dialect, {
        SEMAPHORE_TOTP_ENABLED: 'true', SEMAPHORE_TOTP_ALLOW_RECOVERY: 'true',
        // nothing listens on port 9: every LDAP sign-in fails, and the failure is logged
        SEMAPHORE_LDAP_ENABLE: 'true', SEMAPHORE_LDAP_SERVER: '127.0.0.1:9', SEMAPHORE_LDAP_BIND_DN: 'cn=service,dc=test',
        SEMAPHORE_LDAP_BIND_PASSWORD: BIND_PASSWORD, SEMAPHORE_LDAP_SEARCH_DN: 'dc=test',
        SEMAPHORE_OIDC_PROVIDERS: JSON.stringify({ corp: { provider_url: 'http://127.0.0.1:9/', client_id: 'signalbox', client_secret: CLIENT_SECRET } }),
      });
      const captured = await captureLogs(async () => {
        const admin = await adminSession(s);
        const record = async (method: string, path: string, body?: unknown, auth: Auth = admin) => {
          const res = await s.call(method, path, body, auth);
          responses.push(res.text);
          return res;
        };
        // another admin enrols user 1: an admin is not asked for a password (which would ask the unreachable directory)
        const created = await s.call('POST', '/api/users/1/2fas/totp', undefined, await secondAdminSession(s, admin));
        if (created.status !== 201) throw new Error(`enrolment failed: ${created.status} ${created.text}`);
        totpSecret = new URL(created.body.url).searchParams.get('secret')!;
        recoveryCode = created.body.recovery_code;
        const code = totpCode(created.body.url);
        await record('GET', `/api/users/1/2fas/totp/${created.body.id}/qr`);
        await record('POST', `/api/users/1/2fas/totp/${created.body.id}/confirm`, { passcode: code });
        await record('POST', '/api/auth/verify', { passcode: code });
        for (const path of ['/api/user', '/api/users/1', '/api/users', '/api/info', '/api/auth/login', '/api/user/sessions']) await record('GET', path);
        await record('POST', '/api/auth/login', { auth: 'someone', password: 'whatever' }, {});
        await record('POST', '/api/auth/recovery', { recovery_code: 'AAAAAAAAAAAAAAAA' });
        await record('GET', '/api/auth/oidc/corp/login', undefined, {});
        await record('GET', '/api/auth/oidc/corp/redirect?code=x&state=y', undefined, {});
      });
      logs.push(...captured.lines);
    });
    afterAll(async () => { await s.close(); });

    it('logged the failures it provoked, so the log search below has lines to search', () => {
      expect(logs.join('\n')).toMatch(/\[oidc\] sign-in through "corp" failed/);
      expect(logs.join('\n')).toMatch(/POST \/api\/auth\/login failed/);
    });

    it('shows neither the TOTP secret nor the recovery code after creation, nor the bind password or client secret', async () => {
      expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
      expectNoSecrets([...responses, ...logs], [totpSecret, recoveryCode, BIND_PASSWORD, CLIENT_SECRET], await storedSecretForms(s.deps.db));
    });
  });
}

/** A session of the env admin made directly: with LDAP down, password sign-in answers 500 by design. */
async function secondAdminSession(s: TestServer, admin: Auth): Promise<Auth> {
  const created = await s.call('POST', '/api/users', { username: 'second-admin', name: 'Second', email: 'second@example.test', password: 'second-password-1', admin: true }, admin);
  if (created.status !== 201) throw new Error(`second admin: ${created.status} ${created.text}`);
  return { cookie: `semaphore=${await startSession(s.deps.db, created.body.id, 'test', 'vitest')}` };
}

async function adminSession(s: TestServer): Promise<Auth> {
  const admin = await s.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  return { cookie: `semaphore=${await startSession(s.deps.db, admin.id, 'test', 'vitest')}` };
}
