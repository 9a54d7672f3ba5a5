import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';

for (const dialect of DIALECTS) {
  describe(`sign-in throttling (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('makes one address wait after 5 wrong passwords for an account, 30 s and then twice as long each time', async () => {
      for (let i = 1; i <= 5; i++) {
        const res = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: `wrong-${i}` }, { 'x-real-ip': '10.0.0.1' });
        expect(res.status, `attempt ${i}`).toBe(401);
      }
      const sixth = await s.call('POST', '/api/auth/login', { auth: ADMIN.email, password: ADMIN.password }, { 'x-real-ip': '10.0.0.1' });
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(25);
      expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      // the wait is over: one more failure doubles the next wait
      await s.deps.db.updateTable('login_attempt').set({ created: new Date(Date.now() - 31_000).toISOString() }).execute();
      expect((await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: 'wrong-6' }, { 'x-real-ip': '10.0.0.1' })).status).toBe(401);
      const seventh = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: ADMIN.password }, { 'x-real-ip': '10.0.0.1' });
      expect(seventh.status).toBe(429);
      expect(Number(seventh.headers.get('retry-after'))).toBeGreaterThan(55);
    });

    it('does not lock the user out of another address', async () => {
      const res = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: ADMIN.password }, { 'x-real-ip': '10.0.0.2' });
      expect(res.status).toBe(204);
    });

    it('lets the user in again once the failures are older than the window', async () => {
      await s.deps.db.updateTable('login_attempt').set({ created: new Date(Date.now() - 16 * 60_000).toISOString() }).execute();
      const res = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: ADMIN.password });
      expect(res.status).toBe(204);
    });

    it('throttles an IP that tries many user names: past 20 failures, one free try per name', async () => {
      const signIn = async (auth: string) => (await s.call('POST', '/api/auth/login', { auth, password: 'x' }, { 'x-real-ip': '10.9.9.9' })).status;
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push(await signIn(`nobody-${i}`));
      expect(statuses.every((st) => st === 401)).toBe(true);
      expect(await signIn('nobody-20')).toBe(429);
    });
  });
}
