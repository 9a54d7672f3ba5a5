import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';

for (const dialect of DIALECTS) {
  describe(`sign-in throttling (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('answers the 6th wrong password for a user with 429 and Retry-After, even with the right password then', async () => {
      for (let i = 1; i <= 5; i++) {
        const res = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: `wrong-${i}` }, { 'x-real-ip': `10.0.0.${i}` });
        expect(res.status, `attempt ${i}`).toBe(401);
      }
      const sixth = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: 'wrong-6' }, { 'x-real-ip': '10.0.0.6' });
      expect(sixth.status).toBe(429);
      const retryAfter = Number(sixth.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      const right = await s.call('POST', '/api/auth/login', { auth: ADMIN.email, password: ADMIN.password }, { 'x-real-ip': '10.0.0.7' });
      expect(right.status).toBe(429);
    });

    it('lets the user in again once the failures are older than the window', async () => {
      await s.deps.db.updateTable('login_attempt').set({ created: new Date(Date.now() - 16 * 60_000).toISOString() }).execute();
      const res = await s.call('POST', '/api/auth/login', { auth: ADMIN.login, password: ADMIN.password });
      expect(res.status).toBe(204);
    });

    it('throttles an IP that tries many user names', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        statuses.push((await s.call('POST', '/api/auth/login', { auth: `nobody-${i}`, password: 'x' }, { 'x-real-ip': '10.9.9.9' })).status);
      }
      expect(statuses.slice(0, 20).every((st) => st === 401)).toBe(true);
      expect(statuses[20]).toBe(429);
    });
  });
}
