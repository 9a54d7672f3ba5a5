import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { countResourceRows, createTestProject, signInMember } from '../../support/project-members.ts';

for (const dialect of DIALECTS) {
  describe(`who may read and write project resources (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    const as: Record<string, Auth> = {};
    const ids = { key: 0, repo: 0, inventory: 0, environment: 0 };

    beforeAll(async () => {
      s = await startTestServer(dialect);
      let projectId: number;
      ({ admin, base, projectId } = await createTestProject(s));
      for (const role of ['owner', 'manager', 'task_runner', 'guest']) as[role] = await signInMember(s, projectId, role);
      as.outsider = await signInMember(s, projectId);
      as.anonymous = {};
      ids.key = (await s.call('GET', `${base}/keys`, undefined, admin)).body[0].id;
      ids.environment = (await s.call('GET', `${base}/environment`, undefined, admin)).body[0].id;
      ids.repo = (await s.call('POST', `${base}/repositories`, { name: 'R', git_url: '/srv/r', ssh_key_id: ids.key }, admin)).body.id;
      ids.inventory = (await s.call('POST', `${base}/inventory`, { name: 'I', type: 'static', ssh_key_id: ids.key }, admin)).body.id;
    });
    afterAll(async () => { await s.close(); });

    const readPaths = () => [
      'keys', `keys/${ids.key}`, `keys/${ids.key}/refs`, 'repositories', `repositories/${ids.repo}`, `repositories/${ids.repo}/refs`,
      'inventory', `inventory/${ids.inventory}`, `inventory/${ids.inventory}/refs`, 'environment', `environment/${ids.environment}`, `environment/${ids.environment}/refs`,
    ];
    const writes = (): [string, string, unknown][] => [
      ['POST', 'keys', { name: 'K', type: 'none' }],
      ['PUT', `keys/${ids.key}`, { name: 'None' }],
      ['DELETE', `keys/999999`, undefined],
      ['POST', 'repositories', { name: 'R2', git_url: '/srv/r2', ssh_key_id: ids.key }],
      ['PUT', `repositories/${ids.repo}`, { name: 'R', git_url: '/srv/r', ssh_key_id: ids.key }],
      ['DELETE', `repositories/999999`, undefined],
      ['POST', 'inventory', { name: 'I2', type: 'static', ssh_key_id: ids.key }],
      ['PUT', `inventory/${ids.inventory}`, { name: 'I', type: 'static', ssh_key_id: ids.key }],
      ['DELETE', `inventory/999999`, undefined],
      ['POST', 'environment', { name: 'E', json: '{}' }],
      ['PUT', `environment/${ids.environment}`, { name: 'Empty', json: '{}' }],
      ['DELETE', `environment/999999`, undefined],
    ];

    it('lets every member read; outsiders get 404 and anonymous callers 401', async () => {
      for (const path of readPaths()) {
        for (const role of ['owner', 'manager', 'task_runner', 'guest']) {
          expect((await s.call('GET', `${base}/${path}`, undefined, as[role])).status, `${role} GET ${path}`).toBe(200);
        }
        expect((await s.call('GET', `${base}/${path}`, undefined, as.outsider)).status, `outsider GET ${path}`).toBe(404);
        expect((await s.call('GET', `${base}/${path}`, undefined, as.anonymous)).status, `anonymous GET ${path}`).toBe(401);
      }
    });

    it('refuses writes to task runners and guests with 403, outsiders with 404, anonymous with 401, changing nothing', async () => {
      const before = await countResourceRows(s);
      for (const [method, path, body] of writes()) {
        for (const [who, status] of [['task_runner', 403], ['guest', 403], ['outsider', 404], ['anonymous', 401]] as const) {
          expect((await s.call(method, `${base}/${path}`, body, as[who])).status, `${who} ${method} ${path}`).toBe(status);
        }
      }
      expect(await countResourceRows(s)).toEqual(before);
    });

    it('lets owners and managers write', async () => {
      for (const role of ['owner', 'manager']) {
        for (const [method, path, body] of writes()) {
          const res = await s.call(method, `${base}/${path}`, body, as[role]);
          const expected = method === 'POST' ? 201 : method === 'PUT' ? 204 : 404;
          expect(res.status, `${role} ${method} ${path}: ${res.text}`).toBe(expected);
        }
      }
    });

    it('answers an empty 404 for missing ids and 400 for non-numeric ids on every resource route', async () => {
      for (const path of ['keys', 'repositories', 'inventory', 'environment']) {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const body = method === 'PUT' ? (writes().find(([m, p]) => m === 'PUT' && p.startsWith(path))![2]) : undefined;
          const res = await s.call(method, `${base}/${path}/999999`, body, admin);
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(res.text).toBe('');
        }
        expect((await s.call('GET', `${base}/${path}/999999/refs`, undefined, admin)).status).toBe(404);
        expect((await s.call('GET', `${base}/${path}/1x`, undefined, admin)).status).toBe(400);
      }
    });
  });
}
