import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';

const DAY_MS = 24 * 3600 * 1000;

for (const dialect of DIALECTS) {
  describe(`session idle expiry (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    const ageLatestSession = async (days: number) => {
      const latest = await s.deps.db.selectFrom('session').select('id').orderBy('created', 'desc').executeTakeFirstOrThrow();
      await s.deps.db.updateTable('session').set({ last_active: new Date(Date.now() - days * DAY_MS).toISOString() })
        .where('id', '=', latest.id).execute();
      return latest.id;
    };

    it('refuses a session unused for 8 days with 401 and marks it expired', async () => {
      const auth = await s.login(ADMIN.login, ADMIN.password);
      const id = await ageLatestSession(8);
      expect((await s.call('GET', '/api/user', undefined, auth)).status).toBe(401);
      const row = await s.deps.db.selectFrom('session').select('expired').where('id', '=', id).executeTakeFirstOrThrow();
      expect(Number(row.expired)).toBe(1);
    });

    it('keeps a session unused for 6 days and refreshes its last_active', async () => {
      const auth = await s.login(ADMIN.login, ADMIN.password);
      const id = await ageLatestSession(6);
      expect((await s.call('GET', '/api/user', undefined, auth)).status).toBe(200);
      const row = await s.deps.db.selectFrom('session').select('last_active').where('id', '=', id).executeTakeFirstOrThrow();
      expect(Date.now() - Date.parse(row.last_active)).toBeLessThan(60_000);
    });
  });
}
