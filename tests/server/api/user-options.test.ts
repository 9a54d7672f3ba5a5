import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { loadSpec, validateAgainst } from '../../contract/openapi-spec.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

const spec = loadSpec();

for (const dialect of DIALECTS) {
  describe(`per-user options (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let other: Auth;
    let otherId: number;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      const created = await s.call('POST', '/api/users', { username: 'olga', name: 'Olga', email: 'olga@example.test', password: 'olga-password-1' }, admin);
      otherId = created.body.id;
      other = await s.login('olga', 'olga-password-1');
    });
    afterAll(async () => { await s.close(); });

    it('answers an empty object before anything is stored', async () => {
      const res = await s.call('GET', '/api/user/options', undefined, other);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    });

    it("stores Semaphore's example option unchanged and answers it without the user namespace", async () => {
      const example = { key: 'nav.unpinnedItems', value: '["dashboard","history"]' };
      const stored = await s.call('POST', '/api/user/options', example, admin);
      expect(stored.status).toBe(200);
      expect(stored.body).toEqual(example);
      const read = await s.call('GET', '/api/user/options', undefined, admin);
      expect(read.body).toEqual({ 'nav.unpinnedItems': '["dashboard","history"]' });
      const rows = await s.deps.db.selectFrom('option').select(['key', 'value']).where('key', 'like', 'user%').execute();
      expect(rows).toEqual([{ key: 'user1.nav.unpinnedItems', value: example.value }]);
    });

    it("keeps each user's options apart", async () => {
      await s.call('POST', '/api/user/options', { key: 'ui.theme', value: 'dark' }, other);
      expect((await s.call('GET', '/api/user/options', undefined, other)).body).toEqual({ 'ui.theme': 'dark' });
      expect((await s.call('GET', '/api/user/options', undefined, admin)).body).not.toHaveProperty('ui.theme');
    });

    it('replaces a value, and an empty value clears it', async () => {
      await s.call('POST', '/api/user/options', { key: 'nav.lastView.7', value: 'stats' }, other);
      await s.call('POST', '/api/user/options', { key: 'nav.lastView.7', value: 'activity' }, other);
      expect((await s.call('GET', '/api/user/options', undefined, other)).body['nav.lastView.7']).toBe('activity');
      await s.call('POST', '/api/user/options', { key: 'nav.lastView.7', value: '' }, other);
      expect((await s.call('GET', '/api/user/options', undefined, other)).body).not.toHaveProperty('nav.lastView.7');
    });

    it('audits a change of preference, not where the person last was (page views store that)', async () => {
      await settleAuditInbox(s.deps.db);
      const rows = () => s.deps.db.selectFrom('audit').select(['object_type', 'object_name']).where('actor_user_id', '=', otherId).where('object_type', '=', 'user_option').orderBy('id').execute();
      const before = (await rows()).length;
      for (const view of ['stats', 'history', 'activity']) expect((await s.call('POST', '/api/user/options', { key: 'nav.lastView.3', value: view }, other)).status).toBe(200);
      expect((await s.call('POST', '/api/user/options', { key: 'nav.lastProject', value: '3' }, other)).status).toBe(200);
      await settleAuditInbox(s.deps.db);
      expect((await rows()).length).toBe(before);
      expect((await s.call('GET', '/api/user/options', undefined, other)).body).toMatchObject({ 'nav.lastView.3': 'activity', 'nav.lastProject': '3' });
      await s.call('POST', '/api/user/options', { key: 'ui.language', value: 'de' }, other);
      await settleAuditInbox(s.deps.db);
      expect((await rows()).slice(before)).toEqual([{ object_type: 'user_option', object_name: 'ui.language' }]);
    });

    it.each([
      [{ key: 'apps.ansible.path', value: '/bin/sh' }, 'key: unknown user option'],
      [{ key: 'user1.ui.theme', value: 'dark' }, 'key: unknown user option'],
      [{ key: '__proto__', value: 'x' }, 'key: unknown user option'],
      [{ key: 'ui.theme', value: 'purple' }, 'value: must be light, dark or system'],
      [{ key: 'nav.unpinnedItems', value: 'not json' }, 'value: must be a JSON array'],
      [{ key: 'nav.lastView.0', value: 'stats' }, 'key: unknown user option'],
      [{ key: 'ui.theme' }, 'value'],
      [{ key: 'ui.theme', value: 3 }, 'value'],
    ])('refuses %j with 400', async (body, error) => {
      const res = await s.call('POST', '/api/user/options', body, other);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(error);
      const global = await s.deps.db.selectFrom('option').select('key').where('key', 'in', ['apps.ansible.path', 'user1.ui.theme']).execute();
      expect(global).toEqual([]);
    });

    it('needs a signed-in user', async () => {
      expect((await s.call('GET', '/api/user/options')).status).toBe(401);
      expect((await s.call('POST', '/api/user/options', { key: 'ui.theme', value: 'dark' })).status).toBe(401);
    });

    it.runIf(spec)("matches Semaphore's Option definition", async () => {
      const res = await s.call('POST', '/api/user/options', { key: 'ui.language', value: 'pt_br' }, other);
      expect(validateAgainst(spec!, { $ref: '#/definitions/Option' }, res.body)).toEqual([]);
    });

    it("deletes a user's options with the user", async () => {
      await s.call('POST', '/api/user/options', { key: 'ui.language', value: 'de' }, other);
      expect((await s.call('DELETE', `/api/users/${otherId}`, undefined, admin)).status).toBe(204);
      const rows = await s.deps.db.selectFrom('option').select('key').where('key', 'like', `user${otherId}.%`).execute();
      expect(rows).toEqual([]);
    });
  });
}
