import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';

for (const dialect of DIALECTS) {
  describe(`password sign-in (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('answers /api/ping with pong as text, without a session', async () => {
      const res = await s.call('GET', '/api/ping');
      expect(res.status).toBe(200);
      expect(res.text).toBe('pong');
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    });

    it('signs the env admin in by username or email and sets an HttpOnly semaphore cookie', async () => {
      for (const auth of [ADMIN.login, ADMIN.email.toUpperCase()]) {
        const res = await s.api.request('/api/auth/login', {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth, password: ADMIN.password }),
        });
        expect(res.status).toBe(204);
        const cookie = res.headers.get('set-cookie')!;
        expect(cookie).toMatch(/^semaphore=/);
        expect(cookie).toMatch(/HttpOnly/);
        expect(cookie).toMatch(/SameSite=Lax/);
      }
    });

    it('refuses a wrong password with an empty 401', async () => {
      const res = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: 'nope' });
      expect(res.status).toBe(401);
      expect(res.text).toBe('');
    });

    it('returns the current user without the password hash', async () => {
      const auth = await s.login(ADMIN.login, ADMIN.password);
      const res = await s.call('GET', '/api/user/', undefined, auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ username: 'admin', admin: true, can_create_project: true });
      expect(res.text).not.toContain('$2');
      expect(res.body.password).toBeUndefined();
    });

    it('ends the server-side session on logout', async () => {
      const auth = await s.login(ADMIN.login, ADMIN.password);
      expect((await s.call('POST', '/api/auth/logout', undefined, auth)).status).toBe(204);
      expect((await s.call('GET', '/api/user', undefined, auth)).status).toBe(401);
    });

    it('rejects malformed JSON with 400 and a field message', async () => {
      const res = await s.call('POST', '/api/auth/login', '{"auth":');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'body: not valid JSON' });
      const wrongType = await s.call('POST', '/api/auth/login', { auth: 5, password: 'x' });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.error).toMatch(/^auth: /);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`password sign-in switched off (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect, { SEMAPHORE_PASSWORD_LOGIN_DISABLED: 'true' }); });
    afterAll(async () => { await s.close(); });

    it('tells the login screen to hide the password form and refuses password sign-in', async () => {
      expect((await s.call('GET', '/api/auth/login')).body).toMatchObject({ login_with_password: false });
      const res = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: ADMIN.password });
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    });
  });
}
