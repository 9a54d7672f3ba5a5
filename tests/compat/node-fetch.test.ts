import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, startCompatServer, type CompatServer } from './support/compat-server.ts';

/** Status and parsed body (null when empty) of a Node `fetch` answer. */
async function answer(res: Response): Promise<[number, unknown]> {
  const text = await res.text();
  return [res.status, text ? JSON.parse(text) : null];
}

for (const dialect of DIALECTS) {
  describe(`Node fetch with no headers but the credentials (${dialect})`, () => {
    let server: CompatServer;
    beforeAll(async () => { server = await startCompatServer(dialect); });
    afterAll(async () => { await server?.close(); });

    it('signs in, makes a token with a bodyless POST, deletes a project and the token with bodyless DELETEs, signs out with a bodyless POST', async () => {
      const api = (path: string, init: RequestInit = {}) => fetch(server.url + path, init);
      const login = await api('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }) });
      expect(await answer(login)).toEqual([204, null]);
      const cookie = { cookie: login.headers.getSetCookie()[0]!.split(';')[0]! };

      const token = await api('/api/user/tokens', { method: 'POST', headers: cookie });
      const [tokenStatus, tokenBody] = await answer(token);
      expect([tokenStatus, tokenBody]).toEqual([201, expect.objectContaining({ id: expect.any(String), expired: false })]);
      const bearer = { authorization: `Bearer ${(tokenBody as { id: string }).id}` };

      // a string body without a header is text/plain to fetch: with a bearer token (no foreign page
      // can attach one) it is read as JSON whatever its label, as Semaphore reads it
      const unlabelled = await api('/api/projects', { method: 'POST', headers: bearer, body: JSON.stringify({ name: 'Unlabelled' }) });
      expect(await answer(unlabelled)).toEqual([201, expect.objectContaining({ name: 'Unlabelled' })]);
      // fetch marks its requests as a browser's (Sec-Fetch-Mode): by cookie, the label still matters
      const byCookie = await api('/api/projects', { method: 'POST', headers: cookie, body: JSON.stringify({ name: 'By cookie' }) });
      expect(await answer(byCookie)).toEqual([415, { error: 'Content-Type must be application/json' }]);
      const created = await api('/api/projects', { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Fetch project' }) });
      const [createdStatus, project] = await answer(created) as [number, { id: number; name: string }];
      expect([createdStatus, project.name]).toEqual([201, 'Fetch project']);

      expect(await answer(await api(`/api/project/${project.id}`, { method: 'DELETE', headers: bearer }))).toEqual([204, null]);
      expect(await answer(await api(`/api/project/${project.id}`, { headers: bearer }))).toEqual([404, null]);

      const tokens = await (await api('/api/user/tokens', { headers: cookie })).json() as { id: string }[];
      const tokenId = tokens.find((t) => (tokenBody as { id: string }).id.startsWith(t.id))!.id;
      expect(await answer(await api(`/api/user/tokens/${tokenId}`, { method: 'DELETE', headers: cookie }))).toEqual([204, null]);
      expect(await answer(await api('/api/user', { headers: bearer }))).toEqual([401, null]);

      expect(await answer(await api('/api/auth/logout', { method: 'POST', headers: cookie }))).toEqual([204, null]);
      expect(await answer(await api('/api/user', { headers: cookie }))).toEqual([401, null]);
    });
  });
}
