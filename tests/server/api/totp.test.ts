import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { previousStepCode, totpCode as codeFor } from '../../support/totp.ts';

const USER = { username: 'tess', name: 'Tess', email: 'tess@example.test', password: 'tess-password-1' };

for (const dialect of DIALECTS) {
  describe(`TOTP two-factor sign-in (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let userId: number;
    beforeAll(async () => {
      s = await startTestServer(dialect, { SEMAPHORE_TOTP_ENABLED: 'true', SEMAPHORE_TOTP_ALLOW_RECOVERY: 'true' });
      admin = await s.login(ADMIN.login, ADMIN.password);
      userId = (await s.call('POST', '/api/users', { ...USER }, admin)).body.id;
    });
    afterAll(async () => { await s.close(); });

    /** Enrols (proving the password) and, unless told not to, confirms with the previous step's code. */
    const enrol = async (auth: Auth, options: { confirm?: boolean } = {}) => {
      const res = await s.call('POST', `/api/users/${userId}/2fas/totp`, { current_password: USER.password }, auth);
      expect(res.status).toBe(201);
      const created = res.body as { id: number; url: string; recovery_code: string };
      if (options.confirm !== false) {
        const confirmed = await s.call('POST', `/api/users/${userId}/2fas/totp/${created.id}/confirm`, { passcode: await previousStepCode(created.url) }, auth);
        expect(confirmed.status).toBe(204);
      }
      return created;
    };
    afterEach(async () => {
      await s.deps.db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      await s.deps.db.deleteFrom('login_attempt').execute();
    });

    it('lists TOTP in the sign-in metadata and in /api/info', async () => {
      const login = await s.call('GET', '/api/auth/login');
      expect(login.body.auth_methods).toEqual({ totp: { enabled: true, allow_recovery: true } });
      const info = await s.call('GET', '/api/info', undefined, admin);
      expect(info.body.auth_methods.totp).toEqual({ enabled: true, allow_recovery: true });
    });

    it('enrols once: the URL and recovery code come only in the 201; the user object shows no secret', async () => {
      const user = await s.login(USER.username, USER.password);
      const totp = await enrol(user);
      expect(totp.url).toMatch(/^otpauth:\/\/totp\/Signalbox:tess\?.*secret=[A-Z2-7]{32}/);
      expect(totp.recovery_code).toMatch(/^[A-Z2-7]{16}$/);
      const secret = new URL(totp.url).searchParams.get('secret')!;
      const again = await s.call('POST', `/api/users/${userId}/2fas/totp`, { current_password: USER.password }, user);
      expect(again.status).toBe(409);
      const me = await s.call('GET', '/api/user', undefined, user);
      expect(me.body.totp).toEqual({ id: totp.id, created: expect.any(String), user_id: userId });
      const byAdmin = await s.call('GET', `/api/users/${userId}`, undefined, admin);
      for (const text of [me.text, byAdmin.text]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(totp.recovery_code);
      }
      const row = await s.deps.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(JSON.stringify(row)).not.toContain(totp.recovery_code);
    });

    it('answers the QR code as a PNG until the first code is used, then 404', async () => {
      const user = await s.login(USER.username, USER.password);
      const totp = await enrol(user, { confirm: false });
      const qr = await s.api.request(`/api/users/${userId}/2fas/totp/${totp.id}/qr`, { headers: user });
      expect(qr.status).toBe(200);
      expect(qr.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await qr.arrayBuffer());
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect((await s.call('POST', `/api/users/${userId}/2fas/totp/${totp.id}/confirm`, { passcode: codeFor(totp.url) }, user)).status).toBe(204);
      expect((await s.call('GET', `/api/users/${userId}/2fas/totp/${totp.id}/qr`, undefined, user)).status).toBe(404);
    });

    it('gives an enrolled user an unverified session: 401 TOTP_REQUIRED until a right code', async () => {
      const totp = await enrol(await s.login(USER.username, USER.password));
      const pending = await s.login(USER.username, USER.password);
      const refused = await s.call('GET', '/api/user', undefined, pending);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'TOTP_REQUIRED' });
      const wrong = await s.call('POST', '/api/auth/verify', { passcode: codeFor(totp.url, 5) }, pending);
      // Semaphore's answer, which its clients read (api/auth.go verifySession)
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error: 'INVALID_PASSCODE' });
      expect((await s.call('POST', '/api/auth/verify', { passcode: codeFor(totp.url) }, pending)).status).toBe(204);
      expect((await s.call('GET', '/api/user', undefined, pending)).status).toBe(200);
    });

    it('refuses a code that was already used (replay), even in another session', async () => {
      const totp = await enrol(await s.login(USER.username, USER.password));
      const code = codeFor(totp.url);
      const first = await s.login(USER.username, USER.password);
      expect((await s.call('POST', '/api/auth/verify', { passcode: code }, first)).status).toBe(204);
      const second = await s.login(USER.username, USER.password);
      expect((await s.call('POST', '/api/auth/verify', { passcode: code }, second)).status).toBe(401);
      expect((await s.call('GET', '/api/user', undefined, second)).status).toBe(401);
    });

    it('throttles wrong codes: the sixth attempt in a row gets 429 even with a right code', async () => {
      const totp = await enrol(await s.login(USER.username, USER.password));
      const pending = await s.login(USER.username, USER.password);
      for (let i = 0; i < 5; i++) {
        expect((await s.call('POST', '/api/auth/verify', { passcode: '000000' === codeFor(totp.url) ? '111111' : '000000' }, pending)).status).toBe(401);
      }
      const blocked = await s.call('POST', '/api/auth/verify', { passcode: codeFor(totp.url) }, pending);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('a recovery code verifies the session once and switches two-factor off', async () => {
      const totp = await enrol(await s.login(USER.username, USER.password));
      const pending = await s.login(USER.username, USER.password);
      const wrong = await s.call('POST', '/api/auth/recovery', { recovery_code: 'AAAAAAAAAAAAAAAA' }, pending);
      expect([wrong.status, wrong.body]).toEqual([401, { error: 'INVALID_RECOVERY_CODE' }]);
      const used = await s.call('POST', '/api/auth/recovery', { recovery_code: totp.recovery_code.toLowerCase() }, pending);
      expect(used.status).toBe(200);
      expect(used.body).toEqual({ totp_removed: true });
      expect((await s.call('GET', '/api/user', undefined, pending)).body.totp).toBeUndefined();
      expect(await s.deps.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).execute()).toEqual([]);
      // with two-factor off, the next password sign-in is verified at once
      expect((await s.call('GET', '/api/user', undefined, await s.login(USER.username, USER.password))).status).toBe(200);
    });

    it('skips the second factor for bearer tokens', async () => {
      const user = await s.login(USER.username, USER.password);
      const token = (await s.call('POST', '/api/user/tokens', undefined, user)).body.id;
      await enrol(user);
      expect((await s.call('GET', '/api/user', undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
    });

    it('lets the user or an admin remove the enrolment, nobody else', async () => {
      const totp = await enrol(await s.login(USER.username, USER.password));
      await s.call('POST', '/api/users', { username: 'other', name: 'Other', email: 'other@example.test', password: 'other-password-1' }, admin);
      const other = await s.login('other', 'other-password-1');
      expect((await s.call('DELETE', `/api/users/${userId}/2fas/totp/${totp.id}`, undefined, other)).status).toBe(401);
      expect((await s.call('DELETE', `/api/users/${userId}/2fas/totp/${totp.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('DELETE', `/api/users/${userId}/2fas/totp/${totp.id}`, undefined, admin)).status).toBe(404);
    });
  });

  describe(`TOTP switched off in config (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('refuses enrolment and verification with 403 TOTP_DISABLED and lists no method', async () => {
      const admin = await s.login(ADMIN.login, ADMIN.password);
      const enrol = await s.call('POST', '/api/users/1/2fas/totp', { current_password: ADMIN.password }, admin);
      expect(enrol.status).toBe(403);
      expect(enrol.body).toEqual({ error: 'TOTP_DISABLED' });
      expect((await s.call('POST', '/api/auth/verify', { passcode: '123456' }, admin)).body).toEqual({ error: 'TOTP_DISABLED' });
      expect((await s.call('GET', '/api/auth/login')).body.auth_methods).toEqual({});
    });
  });
}

