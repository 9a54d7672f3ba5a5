import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../../support/harness.ts';
import { buildWorld, type World } from '../../../support/world.ts';
import { insertProjectResources, type ResourceIds } from '../../../support/resource-rows.ts';
import { snapshotDatabase } from '../../../support/bad-input.ts';
import { INT32_MAX } from '../../../../src/server/http/validation.ts';

/** Path parameters that are not numeric ids, so they are not checked here. */
const NOT_IDS = new Set(['token_id', 'app_id', 'alias', 'action', 'session_id', 'provider_id', 'type', 'provider', 'host']);
/** Valid values of the parameters that are not ids, where a path has them beside an id. */
const NOT_ID_VALUES: Record<string, string> = { type: 'ldap', provider: 'default', host: 'localhost' };

/**
 * DELETEs that answer a missing id like a finished one, 204 with no body, as in Semaphore: taking
 * a task out of the global pool (tasks.test.ts pins it down) and deleting an integration alias
 * (its API test suite deletes one that is gone). An id past the integer range names nothing at
 * all: 404 there too.
 */
const IDEMPOTENT_DELETES = new Set([
  'DELETE /api/tasks/:task_id',
  'DELETE /api/project/:project_id/integrations/aliases/:alias_id',
  'DELETE /api/project/:project_id/integrations/:integration_id/aliases/:alias_id',
]);

/** The real value of a numeric path parameter in the world (the other parameters of a path stay valid). */
function realId(w: World, ids: ResourceIds, path: string, name: string): number {
  const byName: Record<string, number> = {
    project_id: w.projectId, key_id: ids.key, repository_id: ids.repository, inventory_id: ids.workspace, environment_id: ids.environment,
    template_id: ids.template, view_id: ids.view, lock_id: ids.lock, role_id: ids.role, schedule_id: ids.schedule, integration_id: ids.integration, matcher_id: ids.matcher,
    value_id: ids.value, task_id: ids.task, user_id: path.startsWith('/api/project/') ? w.users.extra.id : w.users.spare.id,
    alias_id: path.includes('/terraform/') ? ids.tfAlias : path.includes(':integration_id/') ? ids.integrationAlias : ids.projectAlias,
    state_id: ids.tfState, invite_id: ids.invite,
    // nobody in the world has two-factor on: any id reaches the existence check
    totp_id: 1,
    // the world has no runners: any id reaches the existence check
    runner_id: 1,
    // nor host configs
    host_config_id: 1,
    // nor secret storages
    storage_id: 1,
    // nor board tokens
    board_token_id: 1,
    // nor alert channels or event webhooks
    channel_id: 1, webhook_id: 1,
    workflow_id: ids.workflow, run_id: ids.workflowRun, node_id: ids.workflowNode, version_number: 1,
  };
  const id = byName[name];
  if (id === undefined) throw new Error(`no id for :${name} in ${path}; add it here or to NOT_IDS`);
  return id;
}

/** `path` with `bad` for parameter `name` and real values elsewhere. */
function fillPath(w: World, ids: ResourceIds, path: string, name: string, bad: string): string {
  return path.replace(/:(\w+)(\{([^}]+)\})?/g, (_, param: string, __, alternatives?: string) => {
    if (param === name) return bad;
    if (alternatives) return alternatives.split('|')[0]!;
    if (Object.hasOwn(NOT_ID_VALUES, param)) return NOT_ID_VALUES[param]!;
    return String(realId(w, ids, path, param));
  });
}

for (const dialect of DIALECTS) {
  describe(`ids in paths (${dialect})`, () => {
    let s: TestServer;
    let w: World;
    let ids: ResourceIds;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      w = await buildWorld(s.deps.db);
      ids = await insertProjectResources(s.deps.db, w.projectId);
    });
    afterAll(async () => { await s.close(); });

    /** Every mounted route with its numeric path parameters. */
    const idRoutes = () => [...new Set(s.api.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))]
      .map((route) => {
        const [method, path] = route.split(' ') as [string, string];
        const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter((p) => !NOT_IDS.has(p));
        return { method, path, params };
      })
      .filter((r) => r.params.length > 0);

    it('answers non-numeric, negative and fractional ids with 400 on every route, changing nothing', async () => {
      const before = await snapshotDatabase(s.deps.db);
      const failures: string[] = [];
      for (const r of idRoutes()) {
        for (const name of r.params) {
          for (const bad of ['abc', '1x', '-1', '1.5']) {
            const res = await s.call(r.method, fillPath(w, ids, r.path, name, bad), r.method === 'GET' || r.method === 'DELETE' ? undefined : {}, w.auth.admin);
            if (res.status !== 400) failures.push(`${r.method} ${r.path} :${name}=${bad} → ${res.status}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await snapshotDatabase(s.deps.db)).toEqual(before);
    });

    it('answers hostile path segments (broken escapes, traversal, huge and exotic numbers) with 4xx on every route, changing nothing', async () => {
      const before = await snapshotDatabase(s.deps.db);
      const failures: string[] = [];
      const hostile = ['%', '%E0%A4%A', '%00', '..%2f..%2f1', '99999999999999999999999999', '1e3', '0x10', 'Infinity', '%20%201'];
      for (const r of idRoutes()) {
        for (const name of r.params) {
          for (const bad of hostile) {
            const res = await s.call(r.method, fillPath(w, ids, r.path, name, bad), r.method === 'GET' || r.method === 'DELETE' ? undefined : {}, w.auth.admin);
            if (res.status < 400 || res.status >= 500) failures.push(`${r.method} ${r.path} :${name}=${bad} → ${res.status}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await snapshotDatabase(s.deps.db)).toEqual(before);
    });

    it('answers missing and out-of-range ids with an empty 404 on every GET and DELETE, changing nothing', async () => {
      const before = await snapshotDatabase(s.deps.db);
      const failures: string[] = [];
      for (const r of idRoutes().filter((route) => route.method === 'GET' || route.method === 'DELETE')) {
        for (const name of r.params) {
          for (const missing of ['999999', '99999999999']) {
            const res = await s.call(r.method, fillPath(w, ids, r.path, name, missing), undefined, w.auth.admin);
            // only the deleted object may be missing: a missing project or integration is still a 404
            const deleted = name === r.params[r.params.length - 1];
            const expected = IDEMPOTENT_DELETES.has(`${r.method} ${r.path}`) && deleted && Number(missing) <= INT32_MAX ? 204 : 404;
            if (res.status !== expected || res.text !== '') failures.push(`${r.method} ${r.path} :${name}=${missing} → ${res.status} ${res.text.slice(0, 80)}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await snapshotDatabase(s.deps.db)).toEqual(before);
    });

    it('answers a PUT of a missing resource with an empty 404, even with a valid body', async () => {
      const p = `/api/project/${w.projectId}`;
      const bodies: [string, unknown][] = [
        ['keys', { name: 'None' }], ['repositories', { name: 'R', git_url: '/srv/r', ssh_key_id: ids.key }],
        ['inventory', { name: 'I', type: 'static', ssh_key_id: ids.key }], ['environment', { name: 'Empty', json: '{}' }],
        ['views', { title: 'V' }], ['locks', { capacity: 2 }], ['schedules', { name: 'S' }], ['integrations', { name: 'I' }], ['templates', { name: 'T' }],
      ];
      for (const [path, body] of bodies) {
        const res = await s.call('PUT', `${p}/${path}/999999`, body, w.auth.admin);
        expect([path, res.status, res.text]).toEqual([path, 404, '']);
      }
      expect((await s.call('POST', `${p}/templates/${ids.template}/inventory/99999999999/attach`, undefined, w.auth.admin)).status).toBe(404);
    });

    it('answers bad stats queries with 400', async () => {
      for (const q of ['start=2026-13-45', 'start=soon', 'end=1', 'user_id=me']) {
        expect([q, (await s.call('GET', `/api/project/${w.projectId}/stats?${q}`, undefined, w.auth.admin)).status]).toEqual([q, 400]);
      }
    });
  });
}
