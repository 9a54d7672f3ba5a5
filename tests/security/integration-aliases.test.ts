import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type Caller, type World } from '../support/world.ts';
import { insertTemplate } from '../support/fixtures.ts';
import { insertIntegration, listDeliveryRows, listTasks } from '../support/trigger-fixtures.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';

for (const dialect of DIALECTS) {
  describe(`webhook URLs are secrets, and only a POST fires them (${dialect}, real HTTP)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: World;
    let hook: Awaited<ReturnType<typeof insertIntegration>>;
    let projectAlias = '';
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      const { db } = server.s.deps;
      w = await buildWorld(db);
      const template = await insertTemplate(db, w.projectId, { name: 'Hooked' });
      hook = await insertIntegration(server.s, w.projectId, template.id, { name: 'Open hook' });
      projectAlias = `project${w.projectId}x${Math.random().toString(36).slice(2, 10)}`;
      await db.insertInto('integration_alias').values({ alias: projectAlias, project_id: w.projectId, integration_id: null }).execute();
    });
    afterAll(async () => { await server.close(); });

    const list = async (who: Caller, path: string) => {
      const res = await fetch(`${server.url}/api/project/${w.projectId}/integrations/${path}`, { headers: w.auth[who] });
      return { status: res.status, text: await res.text() };
    };

    it('lists aliases (project and integration level) only to callers who may manage the project\'s resources', async () => {
      for (const path of ['aliases', `${hook.integration.id}/aliases`]) {
        const seen: Record<string, number> = {};
        for (const who of ['admin', 'owner', 'manager', 'task_runner', 'guest'] as const) {
          const res = await list(who, path);
          seen[who] = res.status;
          if (res.status === 403) expect(res.text).not.toMatch(/hook|project\d+x/);
        }
        expect([path, seen]).toEqual([path, { admin: 200, owner: 200, manager: 200, task_runner: 403, guest: 403 }]);
      }
      expect((await list('manager', `${hook.integration.id}/aliases`)).text).toContain(hook.alias);
    });

    it('answers GET and HEAD on the receiver with 405 and records nothing; POST fires it', async () => {
      for (const alias of [hook.alias, projectAlias]) {
        for (const method of ['GET', 'HEAD']) {
          const res = await fetch(`${server.url}/api/integrations/${alias}`, { method });
          expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST, OPTIONS']);
        }
      }
      expect(await listDeliveryRows(server.s.deps.db, hook.integration.id)).toEqual([]);
      expect(await listTasks(server.s.deps.db, w.projectId)).toEqual([]);
      const fired = await fetch(`${server.url}/api/integrations/${hook.alias}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(fired.status).toBe(204);
      expect((await listDeliveryRows(server.s.deps.db, hook.integration.id)).map((d) => d.reason)).toEqual(['matched']);
      expect(await listTasks(server.s.deps.db, w.projectId)).toHaveLength(1);
    });
  });
}
