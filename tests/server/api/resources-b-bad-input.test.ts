import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { countProjectRows } from '../../support/project-rows.ts';

/** Bodies no write route may accept: each must give a 4xx, never a 500, and change nothing. */
const GARBAGE: unknown[] = [
  '{"name":', 'null', '[]', '"text"', '123', 'true',
  { name: 5 }, { name: 'a\u0000b' }, { title: 'a\u0000b' }, { template_id: 1e20 }, { template_id: -1 }, { template_id: 1.5 },
  { template_id: 99999999999 }, { survey_vars: 'x' }, { vaults: [null] }, { task_params: [] }, { position: 1e12 },
  { active: 'yes' }, { cron_format: 42 }, { unknown_field: true }, { name: 'x'.repeat(300) }, { inventory_id: '1' },
  { '7': 'first' }, { '99999999999999': 1 }, { meta: null }, { meta: { name: 'x' }, templates: [{ name: 'a', repository: 'r' }] },
];

for (const dialect of DIALECTS) {
  describe(`bad input on template/view/schedule/integration/restore routes (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let p: string;
    let ids: Record<string, number>;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      const adminRow = await s.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
      const f = await insertProjectWithTemplate(s.deps.db, { ownerId: adminRow.id });
      p = `/api/project/${f.project.id}`;
      const view = (await s.call('POST', `${p}/views`, { title: 'V' }, admin)).body;
      const schedule = (await s.call('POST', `${p}/schedules`, { name: 'S', template_id: f.template.id, cron_format: '* * * * *' }, admin)).body;
      const integration = (await s.call('POST', `${p}/integrations`, { name: 'I', template_id: f.template.id }, admin)).body;
      const matcher = (await s.call('POST', `${p}/integrations/${integration.id}/matchers`, { name: 'm', match_type: 'header', key: 'k', method: 'equals', value: 'v' }, admin)).body;
      const value = (await s.call('POST', `${p}/integrations/${integration.id}/values`, { name: 'v', value_source: 'header', key: 'k', variable: 'V' }, admin)).body;
      ids = { t: f.template.id, view: view.id, schedule: schedule.id, i: integration.id, m: matcher.id, v: value.id };
    });
    afterAll(async () => { await s.close(); });

    const bodyRoutes = (): [string, string][] => [
      ['POST', `${p}/templates`], ['PUT', `${p}/templates/${ids.t}`], ['PUT', `${p}/templates/${ids.t}/description`],
      ['POST', `${p}/views`], ['PUT', `${p}/views/${ids.view}`], ['POST', `${p}/views/positions`],
      ['POST', `${p}/schedules`], ['PUT', `${p}/schedules/${ids.schedule}`], ['PUT', `${p}/schedules/${ids.schedule}/active`], ['POST', `${p}/schedules/validate`],
      ['POST', `${p}/integrations`], ['PUT', `${p}/integrations/${ids.i}`],
      ['POST', `${p}/integrations/${ids.i}/matchers`], ['PUT', `${p}/integrations/${ids.i}/matchers/${ids.m}`],
      ['POST', `${p}/integrations/${ids.i}/values`], ['PUT', `${p}/integrations/${ids.i}/values/${ids.v}`],
      ['POST', '/api/projects/restore'],
    ];

    it('answers every malformed body with a 4xx and leaves the database as it was', async () => {
      const before = await countProjectRows(s.deps.db);
      for (const [method, path] of bodyRoutes()) {
        for (const body of GARBAGE) {
          const res = await s.call(method, path, body, admin);
          const ok = res.status >= 400 && res.status < 500;
          expect([method, path, JSON.stringify(body), ok ? '4xx' : `${res.status} ${res.text}`]).toEqual([method, path, JSON.stringify(body), '4xx']);
        }
      }
      expect(await countProjectRows(s.deps.db)).toEqual(before);
    });

    it('answers non-numeric path ids with 400 and out-of-range ids with 404', async () => {
      const paths = ['/templates/x', '/templates/1x/tasks', '/views/abc', '/schedules/-1', '/integrations/1.5', `/integrations/${ids.i}/matchers/zz`];
      for (const path of paths) expect([path, (await s.call('GET', `${p}${path}`, undefined, admin)).status]).toEqual([path, 400]);
      const huge = ['/templates/99999999999', '/views/99999999999', '/schedules/99999999999', '/integrations/99999999999', `/integrations/${ids.i}/values/99999999999`];
      for (const path of huge) {
        expect([path, (await s.call('GET', `${p}${path}`, undefined, admin)).status]).toEqual([path, 404]);
        expect([path, (await s.call('DELETE', `${p}${path}`, undefined, admin)).status]).toEqual([path, 404]);
      }
      expect((await s.call('POST', `${p}/templates/${ids.t}/inventory/99999999999/attach`, undefined, admin)).status).toBe(404);
    });

    it('answers bad stats queries with 400', async () => {
      for (const q of ['start=2026-13-45', 'start=soon', 'end=1', 'user_id=me']) {
        expect([q, (await s.call('GET', `${p}/stats?${q}`, undefined, admin)).status]).toEqual([q, 400]);
      }
    });
  });
}
