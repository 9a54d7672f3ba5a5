import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../support/harness.ts';
import { settleAuditInbox } from '../../src/server/domain/audit/audit-inbox.ts';

// Issue 45, item 6: a flood of failed sign-ins from one address costs the audit trail one row
// per throttle window, not one per attempt; names and user agents are cut short in the rows;
// and failures for other accounts never stop a right password from that address.
const LONG_AGENT = `flood-agent/${'A'.repeat(1000)}`;

for (const dialect of DIALECTS) {
  describe(`sign-in throttle and its audit rows (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s?.close(); });

    /** An in-process sign-in from `address` (the API takes X-Real-IP there, as the console sets it). */
    const signIn = async (auth: string, password: string, address: string) => (await s.api.request('/api/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-real-ip': address, 'user-agent': LONG_AGENT },
      body: JSON.stringify({ auth, password }),
    })).status;

    const failuresFrom = async (address: string) => {
      await settleAuditInbox(s.deps.db);
      return s.deps.db.selectFrom('audit').selectAll().where('client_ip', '=', address).where('action', '=', 'login_fail').execute();
    };

    it('writes one row per failure until throttled, then one row for all throttled attempts, each cut short', async () => {
      const address = '198.51.100.10';
      const longName = `intruder-${'x'.repeat(240)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push(await signIn(longName, `guess-${i}`, address));
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.slice(5).every((status) => status === 429)).toBe(true);

      const rows = await failuresFrom(address);
      expect(rows).toHaveLength(6);
      expect(rows.filter((r) => /too many attempts from this address/.test(r.description))).toHaveLength(1);
      for (const row of rows) {
        expect(row.actor_name.length).toBeLessThanOrEqual(65);
        expect(row.object_name.length).toBeLessThanOrEqual(65);
        expect(row.user_agent.length).toBeLessThanOrEqual(200);
        expect(row.user_agent.startsWith('flood-agent/')).toBe(true);
      }
    });

    it('counts failures per account and address: spraying names does not lock a right password out of that address', async () => {
      const address = '198.51.100.20';
      const sprayed: number[] = [];
      for (let i = 0; i < 25; i++) sprayed.push(await signIn(`nobody-${i}`, 'Winter2026!', address));
      expect(sprayed).toEqual(Array(25).fill(401));

      expect(await signIn(ADMIN.login, ADMIN.password, address)).toBe(204);
      // the noisy address keeps one free try per account: a second guess at once waits
      expect(await signIn('somebody', 'Spring2026!', address)).toBe(401);
      expect(await signIn('somebody', 'Summer2026!', address)).toBe(429);
      // another address is not affected by this one's failures
      expect(await signIn('somebody', 'Autumn2026!', '198.51.100.21')).toBe(401);

      const rows = await failuresFrom(address);
      expect(rows).toHaveLength(21);
      expect(rows.filter((r) => /too many attempts from this address/.test(r.description))).toHaveLength(1);
    });
  });
}
