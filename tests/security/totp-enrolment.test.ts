import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../support/harness.ts';
import { totpCode as codeFor } from '../support/totp.ts';

// Issue 45, item 5: a stolen API token must not turn two-factor on and lock its owner out.
// Enrolling takes the current password (or a code of a confirmed enrolment), and an enrolment
// is pending, asked at no sign-in, until a code from it is confirmed.
const USER = { username: 'pat', name: 'Pat', email: 'pat@example.test', password: 'pat-password-1' };

for (const dialect of DIALECTS) {
  describe(`TOTP enrolment needs the password and a confirmed code (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let userId: number;
    let bearer: Auth;
    const base = () => `/api/users/${userId}/2fas/totp`;
    const enrolments = () => s.deps.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).execute();
    /** Whether a password sign-in is asked for a code (its session answers 401 TOTP_REQUIRED). */
    const signInAsksForCode = async () => {
      const session = await s.login(USER.username, USER.password);
      const me = await s.call('GET', '/api/user', undefined, session);
      return me.status === 401 && me.body?.error === 'TOTP_REQUIRED';
    };

    beforeAll(async () => {
      s = await startTestServer(dialect, { SEMAPHORE_TOTP_ENABLED: 'true' });
      admin = await s.login(ADMIN.login, ADMIN.password);
      userId = (await s.call('POST', '/api/users', USER, admin)).body.id;
      const token = await s.call('POST', '/api/user/tokens', undefined, await s.login(USER.username, USER.password));
      bearer = { authorization: `Bearer ${token.body.id}` };
    });
    afterEach(async () => {
      await s.deps.db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      await s.deps.db.deleteFrom('login_attempt').execute();
    });
    afterAll(async () => { await s?.close(); });

    it('refuses an API token alone, or a wrong password, and enrols nobody', async () => {
      for (const body of [undefined, {}, { current_password: 'wrong-password' }, { passcode: '123456' }]) {
        const res = await s.call('POST', base(), body, bearer);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toMatch(/^current_password: /);
        expect(res.text).not.toContain('otpauth');
      }
      const session = await s.login(USER.username, USER.password);
      expect((await s.call('POST', base(), undefined, session)).status).toBe(400);
      expect(await enrolments()).toEqual([]);
      expect(await signInAsksForCode()).toBe(false);
    });

    it('keeps an enrolment pending until a code confirms it: sign-in asks for no code meanwhile', async () => {
      const created = await s.call('POST', base(), { current_password: USER.password }, bearer);
      expect(created.status).toBe(201);
      expect(created.body.url).toMatch(/^otpauth:\/\//);
      expect(await signInAsksForCode()).toBe(false);
      expect((await s.call('GET', `/api/users/${userId}`, undefined, admin)).body.totp).toMatchObject({ id: created.body.id, pending: true });
      // a pending enrolment's code proves nothing yet
      const remove = await s.call('DELETE', `${base()}/${created.body.id}`, { passcode: codeFor(created.body.url) }, bearer);
      expect(remove.status).toBe(400);

      const wrong = await s.call('POST', `${base()}/${created.body.id}/confirm`, { passcode: codeFor(created.body.url, 10) }, bearer);
      expect([wrong.status, wrong.body.error]).toEqual([400, 'passcode: incorrect code']);
      expect(await signInAsksForCode()).toBe(false);
      for (const body of [{}, { passcode: 123456 }, { passcode: 'x'.repeat(65) }]) {
        expect((await s.call('POST', `${base()}/${created.body.id}/confirm`, body, bearer)).status).toBe(400);
      }
      expect((await s.call('POST', `${base()}/999999/confirm`, { passcode: codeFor(created.body.url) }, bearer)).status).toBe(404);

      const confirmed = await s.call('POST', `${base()}/${created.body.id}/confirm`, { passcode: codeFor(created.body.url) }, bearer);
      expect(confirmed.status).toBe(204);
      expect(await signInAsksForCode()).toBe(true);
      expect((await s.call('GET', `/api/users/${userId}`, undefined, admin)).body.totp).toEqual({ id: created.body.id, created: expect.any(String), user_id: userId });
      expect((await s.call('GET', `${base()}/${created.body.id}/qr`, undefined, bearer)).status).toBe(404);
      expect((await s.call('POST', `${base()}/${created.body.id}/confirm`, { passcode: codeFor(created.body.url, 1) }, bearer)).status).toBe(409);
      expect((await s.call('POST', base(), { current_password: USER.password }, bearer)).status).toBe(409);
    });

    it('replaces a pending enrolment when the user starts again', async () => {
      const first = await s.call('POST', base(), { current_password: USER.password }, bearer);
      const second = await s.call('POST', base(), { current_password: USER.password }, bearer);
      expect([first.status, second.status]).toEqual([201, 201]);
      expect((await enrolments()).map((row) => row.id)).toEqual([second.body.id]);
      expect((await s.call('POST', `${base()}/${first.body.id}/confirm`, { passcode: codeFor(first.body.url) }, bearer)).status).toBe(404);
      expect(await signInAsksForCode()).toBe(false);
    });

    it('lets an admin start another user’s enrolment without a password; it stays pending', async () => {
      const created = await s.call('POST', base(), undefined, admin);
      expect(created.status).toBe(201);
      expect(await signInAsksForCode()).toBe(false);
    });
  });
}
