import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type World } from '../support/world.ts';
import { aliasOf, insertProjectResources } from '../support/resource-rows.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';

/** `{"k0":1,"k1":1,…}`: the issue's body of many small keys (800,000 keys are 9.5 MB, under the API's 10 MB). */
function manyKeys(count: number, known: Record<string, unknown> = {}): string {
  const parts = Object.entries(known).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  for (let i = 0; i < count; i++) parts.push(`"k${i}":1`);
  return `{${parts.join(',')}}`;
}

const HUGE = Buffer.from(manyKeys(800_000));

/**
 * Sends `method path` announcing the whole 9.5 MB body but writing only its first 128 KB, then
 * waits for the answer. A server that reads (let alone parses) the body before answering never
 * answers, as the rest never comes; one that refuses it up front answers at once.
 */
function answerBeforeBody(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: { 'content-type': 'application/json', 'content-length': String(HUGE.length), ...headers } });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => {
        resolve({ status: res.statusCode!, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(HUGE.subarray(0, 128 * 1024));
  });
}

for (const dialect of DIALECTS) {
  describe(`request bodies cost bounded work (${dialect}, real HTTP)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: World;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      w = await buildWorld(server.s.deps.db);
      await insertProjectResources(server.s.deps.db, w.projectId);
    });
    afterAll(async () => { await server.close(); });

    it('is 9.5 MB of 800,000 keys, under the API-wide 10 MB limit', () => {
      expect(HUGE.length).toBeGreaterThan(9_000_000);
      expect(HUGE.length).toBeLessThan(10 * 1024 * 1024);
    });

    it('refuses the 9.5 MB many-keys body on every unauthenticated route before it has arrived', async () => {
      const small = ['/api/auth/login', '/api/auth/verify', '/api/auth/recovery', '/api/auth/logout', '/api/user/tokens', '/api/board/tokens'];
      const expected: [string, string, number][] = [
        ...small.map((path): [string, string, number] => ['POST', path, 413]),
        ['POST', '/api/internal/runners', 413],
        ['DELETE', '/api/internal/runners', 413],
        ['PUT', '/api/internal/runners', 401],
        ['POST', `/api/integrations/${aliasOf(w.projectId, 'integration')}`, 413],
        ['POST', '/api/terraform/no-such-alias', 404],
        ['POST', '/api/projects', 401],
        ['POST', '/api/projects/restore', 401],
      ];
      const seen: string[] = [];
      for (const [method, path] of expected) {
        const { status, body } = await answerBeforeBody(server.url, method, path);
        seen.push(`${method} ${path} ${status}${status === 413 ? ` ${JSON.parse(body).error ? 'error' : body}` : ''}`);
      }
      expect(seen).toEqual(expected.map(([method, path, status]) => `${method} ${path} ${status}${status === 413 ? ' error' : ''}`));
      expect(await (await fetch(`${server.url}/api/ping`)).text()).toBe('pong');
    });

    it('takes a sign-in of normal size, whatever unknown fields it carries', async () => {
      const body = manyKeys(100, { auth: w.users.owner.username, password: w.password });
      const res = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(204);
    });

    it('counts keys and elements before parsing: 100,001 of them are refused with 413 on a regular route, as a signed-in caller', async () => {
      const post = (body: string) => fetch(`${server.url}/api/projects`, { method: 'POST', headers: { ...w.auth.admin, 'content-type': 'application/json' }, body });
      const over = await post(manyKeys(100_000, { name: 'Too many keys' }));
      expect(over.status).toBe(413);
      expect(await over.json()).toEqual({ error: 'body: more than 100000 keys and elements' });
      const names = (await (await fetch(`${server.url}/api/projects`, { headers: w.auth.admin })).json()) as { name: string }[];
      expect(names.map((p) => p.name)).not.toContain('Too many keys');
    });

    it('drops up to the budget of unknown keys and stores only the known fields; commas inside strings are no values', async () => {
      const post = (body: string) => fetch(`${server.url}/api/projects`, { method: 'POST', headers: { ...w.auth.admin, 'content-type': 'application/json' }, body });
      const within = await post(manyKeys(99_990, { name: 'Many unknown keys' }));
      expect(within.status).toBe(201);
      const created = (await within.json()) as Record<string, unknown>;
      expect(created.name).toBe('Many unknown keys');
      expect(Object.keys(created).filter((key) => /^k\d+$/.test(key))).toEqual([]);
      const commas = await post(JSON.stringify({ name: 'Commas in a string', note: ',{['.repeat(200_000) }));
      expect(commas.status).toBe(201);
    });
  });
}
