import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type World } from '../support/world.ts';
import { insertProjectResources, aliasOf, type ResourceIds } from '../support/resource-rows.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';

const PAGES = fileURLToPath(new URL('../../src/pages/', import.meta.url));

/** Every console page path (from src/pages), with `[param]` segments filled with the project id. */
function consolePaths(projectId: number): string[] {
  return readdirSync(PAGES, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(astro|ts)$/.test(file))
    .map((file) => '/' + file.replace(/\.(astro|ts)$/, '').replace(/(^|\/)index$/, '').replace(/\[[^\]]+\]/g, String(projectId)))
    .filter((path) => !/^\/(404|500)$/.test(path));
}

const DEPTH = 15_000;
const DEEP_ARRAY = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const DEEP_OBJECT = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
const deepField = (field: string) => `{"${field}":${DEEP_ARRAY}}`;

for (const dialect of DIALECTS) {
  describe(`bodies and numbers that gave 500 (${dialect}, real HTTP)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: World;
    let ids: ResourceIds;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      w = await buildWorld(server.s.deps.db);
      ids = await insertProjectResources(server.s.deps.db, w.projectId);
    });
    afterAll(async () => { await server.close(); });

    const send = (method: string, path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(server.url + path, { method, headers: { ...w.auth.admin, 'content-type': 'application/json', ...headers }, body });

    it('answers JSON nested 15,000 deep with 400 on every write that takes free-form JSON', async () => {
      const p = `/api/project/${w.projectId}`;
      const targets: [string, string, string][] = [
        ['POST', '/api/projects', deepField('name')],
        ['POST', `${p}/environment`, deepField('json')],
        ['POST', `${p}/templates`, deepField('survey_vars')],
        ['POST', `${p}/tasks`, deepField('environment')],
        ['POST', '/api/projects/restore', deepField('meta')],
        ['POST', `/api/users/${w.users.spare.id}/password`, DEEP_OBJECT],
        ['POST', `${p}/keys`, DEEP_ARRAY],
        ['POST', `${p}/integrations/${ids.integration}/values`, deepField('value')],
      ];
      const problems: string[] = [];
      for (const [method, path, body] of targets) {
        const res = await send(method, path, body);
        const text = await res.text();
        if (res.status !== 400 || !text.includes('"error"')) problems.push(`${method} ${path}: ${res.status} ${text.slice(0, 100)}`);
      }
      expect(problems).toEqual([]);
      expect(await (await fetch(`${server.url}/api/ping`)).text()).toBe('pong');
    });

    it('answers a 15,000-deep webhook body without a 500', async () => {
      const res = await fetch(`${server.url}/api/integrations/${aliasOf(w.projectId, 'integration')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: DEEP_OBJECT });
      expect(res.status).toBeLessThan(500);
    });

    it('answers every console page\'s form post with a JSON or a broken multipart body with 400', async () => {
      const pages = consolePaths(w.projectId);
      expect(pages).toEqual(expect.arrayContaining(['/project/new', '/auth/login', `/project/${w.projectId}/settings`, '/project/restore']));
      const bodies: [string, string, string][] = [
        ['JSON', 'application/json', '{"name":"x"}'],
        ['broken multipart', 'multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx'],
        ['multipart without boundary', 'multipart/form-data', 'name=x'],
        ['text', 'text/plain', 'name=x'],
      ];
      const problems: string[] = [];
      for (const page of pages) {
        for (const [label, type, body] of bodies) {
          const res = await fetch(server.url + page, { method: 'POST', redirect: 'manual', headers: { ...w.auth.admin, 'content-type': type }, body });
          if (res.status !== 400) problems.push(`${page} with ${label}: ${res.status}`);
        }
      }
      expect(problems).toEqual([]);
      expect(await server.s.deps.db.selectFrom('project').select('id').where('name', '=', 'x').execute()).toEqual([]);
    });

    it('answers ?offset=99999999999999999999 on task lists and task output with 400', async () => {
      const p = `/api/project/${w.projectId}`;
      for (const path of [`${p}/tasks?offset=99999999999999999999&limit=5`, `${p}/tasks/${ids.task}/output?offset=99999999999999999999&limit=5`]) {
        const res = await fetch(server.url + path, { headers: w.auth.admin });
        expect([path, res.status]).toEqual([path, 400]);
        expect(((await res.json()) as { error: string }).error).toMatch(/^offset: /);
      }
    });
  });
}
