import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';

for (const dialect of DIALECTS) {
  describe(`API tokens (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
    });
    afterAll(async () => { await s.close(); });

    const createToken = async (body?: unknown) => {
      const res = await s.call('POST', '/api/user/tokens', body, admin);
      expect(res.status).toBe(201);
      return res.body as { id: string; name: string; expires_at: string | null; expired: boolean; user_id: number };
    };

    it('creates a 44-character lower-case token shown in full only in the 201 answer', async () => {
      const token = await createToken({ name: 'CI' });
      expect(token.id).toMatch(/^[a-z0-9_=-]{44}$/);
      expect(token).toMatchObject({ name: 'CI', expired: false, expires_at: null });
      const list = await s.call('GET', '/api/user/tokens', undefined, admin);
      const listed = list.body.find((t: { id: string }) => t.id === token.id.slice(0, 8));
      expect(listed).toMatchObject({ name: 'CI', expired: false, user_id: token.user_id });
      expect(list.text).not.toContain(token.id);
      expect(list.body.every((t: { id: string }) => t.id.length === 8)).toBe(true);
    });

    it('stores only a hash of the token', async () => {
      const token = await createToken();
      const rows = await s.deps.db.selectFrom('api_token').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(token.id);
    });

    it('accepts an empty body', async () => {
      const res = await s.call('POST', '/api/user/tokens', undefined, admin);
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('');
    });

    it('authenticates a bearer token whatever the case of the header and the token', async () => {
      const token = await createToken();
      for (const header of [`Bearer ${token.id}`, `bearer ${token.id}`, `BEARER ${token.id.toUpperCase()}`]) {
        const res = await s.call('GET', '/api/user', undefined, { authorization: header });
        expect(res.status, header).toBe(200);
        expect(res.body.username).toBe(ADMIN.login);
      }
    });

    it('refuses an unknown token with 401 and does not fall back to the cookie', async () => {
      const res = await s.call('GET', '/api/user', undefined, { ...admin, authorization: 'Bearer nope' });
      expect(res.status).toBe(401);
    });

    it('refuses a token whose expires_at has passed', async () => {
      const token = await createToken({ name: 'short', expires_at: new Date(Date.now() + 60_000).toISOString() });
      expect((await s.call('GET', '/api/user', undefined, { authorization: `Bearer ${token.id}` })).status).toBe(200);
      await s.deps.db.updateTable('api_token').set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('prefix', '=', token.id.slice(0, 8)).execute();
      expect((await s.call('GET', '/api/user', undefined, { authorization: `Bearer ${token.id}` })).status).toBe(401);
      const list = await s.call('GET', '/api/user/tokens', undefined, admin);
      expect(list.body.find((t: { id: string }) => t.id === token.id.slice(0, 8)).expired).toBe(true);
    });

    it('rejects an expires_at that is not in the future, or not a date, with 400', async () => {
      const past = await s.call('POST', '/api/user/tokens', { expires_at: new Date(Date.now() - 1000).toISOString() }, admin);
      expect(past.status).toBe(400);
      expect(past.body.error).toMatch(/^expires_at: /);
      const garbage = await s.call('POST', '/api/user/tokens', { expires_at: 'tomorrow' }, admin);
      expect(garbage.status).toBe(400);
    });

    it('deletes a token by its 8-character id or by the full token, after which it stops working', async () => {
      for (const byPrefix of [true, false]) {
        const token = await createToken();
        const res = await s.call('DELETE', `/api/user/tokens/${byPrefix ? token.id.slice(0, 8) : token.id}`, undefined, admin);
        expect(res.status).toBe(204);
        expect((await s.call('GET', '/api/user', undefined, { authorization: `Bearer ${token.id}` })).status).toBe(401);
        const list = await s.call('GET', '/api/user/tokens', undefined, admin);
        expect(list.body.map((t: { id: string }) => t.id)).not.toContain(token.id.slice(0, 8));
      }
    });

    it('answers 404 for a token that is not the caller’s', async () => {
      expect((await s.call('DELETE', '/api/user/tokens/abcdefgh', undefined, admin)).status).toBe(404);
    });
  });
}
