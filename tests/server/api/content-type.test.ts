import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';

const FORM = 'application/x-www-form-urlencoded';

for (const dialect of DIALECTS) {
  describe(`a JSON body whatever its Content-Type, for clients that are no browser (${dialect})`, () => {
    let s: TestServer;
    let cookie: Auth;
    let bearer: Auth;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      cookie = await s.login(ADMIN.login, ADMIN.password);
      const token = await s.call('POST', '/api/user/tokens', undefined, cookie);
      bearer = { authorization: `Bearer ${token.body.id}` };
    });
    afterAll(async () => { await s.close(); });

    const send = (path: string, body: unknown, headers: Record<string, string>) =>
      s.api.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
    const projectNamed = (name: string) => s.deps.db.selectFrom('project').select('id').where('name', '=', name).execute();

    it("signs in with curl -d's form label, as Semaphore reads it (no Origin, no Sec-Fetch-*)", async () => {
      const res = await send('/api/auth/login', { auth: ADMIN.login, password: ADMIN.password }, { 'content-type': FORM });
      expect(res.status).toBe(204);
      expect(res.headers.get('set-cookie')).toMatch(/^semaphore=/);
    });

    it('reads the body as JSON with a bearer token, even from a browser', async () => {
      for (const [name, headers] of [
        ['Bearer text', { ...bearer, 'content-type': 'text/plain' }],
        ['Bearer unlabelled', { ...bearer }],
        ['Bearer browser', { ...bearer, 'content-type': FORM, 'sec-fetch-site': 'cross-site', origin: 'https://elsewhere.example' }],
      ] as const) {
        const res = await send('/api/projects', { name }, headers);
        expect([name, res.status]).toEqual([name, 201]);
        expect(await projectNamed(name)).toHaveLength(1);
      }
    });

    it('reads the body as JSON by cookie when nothing shows a browser; a body that is no JSON is a 400', async () => {
      expect((await send('/api/projects', { name: 'Cookie script' }, { ...cookie, 'content-type': 'text/plain' })).status).toBe(201);
      const form = await s.api.request('/api/projects', { method: 'POST', headers: { ...cookie, 'content-type': FORM }, body: 'name=Form' });
      expect([form.status, await form.json()]).toEqual([400, { error: 'body: not valid JSON' }]);
      expect(await projectNamed('Form')).toEqual([]);
    });

    it('refuses a browser request by cookie whose body is not labelled JSON (415), as before, creating nothing', async () => {
      for (const sign of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-mode': 'no-cors' }, { 'sec-fetch-dest': 'empty' }, { origin: 'http://localhost:3000' }] as Record<string, string>[]) {
        const res = await send('/api/projects', { name: 'Forged' }, { ...cookie, ...sign, 'content-type': 'text/plain' });
        expect([JSON.stringify(sign), res.status]).toEqual([JSON.stringify(sign), 415]);
      }
      // from another origin, even a JSON body by cookie is refused
      const foreign = await send('/api/projects', { name: 'Forged' }, { ...cookie, origin: 'https://evil.example', 'content-type': 'application/json' });
      expect(foreign.status).toBe(403);
      expect(await projectNamed('Forged')).toEqual([]);
    });
  });
}
