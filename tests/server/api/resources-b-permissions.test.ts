import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { countProjectRows, insertInventory, insertMember, insertUserWithToken } from '../../support/project-rows.ts';

/**
 * The permission matrix of templates, views, schedules, integrations, stats and backup:
 * any member reads, owner/manager write, task_runner/guest get 403 on writes, non-members 404.
 */
for (const dialect of DIALECTS) {
  describe(`template/view/schedule/integration permissions (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let p: string;
    let ids: Record<string, number>;
    const auth: Record<string, Auth> = {};
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      const adminRow = await s.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
      const f = await insertProjectWithTemplate(s.deps.db, { ownerId: adminRow.id, app: 'terraform', playbook: '' });
      p = `/api/project/${f.project.id}`;
      for (const role of ['owner', 'manager', 'task_runner', 'guest']) auth[role] = await insertMember(s.deps.db, f.project.id, role);
      auth.outsider = (await insertUserWithToken(s.deps.db)).auth;
      const ws = await insertInventory(s.deps.db, f.project.id, { name: 'ws', type: 'terraform-workspace', inventory: 'ws' });
      const view = (await s.call('POST', `${p}/views`, { title: 'V' }, admin)).body;
      const schedule = (await s.call('POST', `${p}/schedules`, { name: 'S', template_id: f.template.id, cron_format: '* * * * *' }, admin)).body;
      const integration = (await s.call('POST', `${p}/integrations`, { name: 'I', template_id: f.template.id }, admin)).body;
      const matcher = (await s.call('POST', `${p}/integrations/${integration.id}/matchers`, { name: 'm', match_type: 'header', key: 'k', method: 'equals', value: 'v' }, admin)).body;
      const value = (await s.call('POST', `${p}/integrations/${integration.id}/values`, { name: 'v', value_source: 'header', key: 'k', variable: 'V' }, admin)).body;
      const alias = (await s.call('POST', `${p}/integrations/aliases`, undefined, admin)).body;
      const ownAlias = (await s.call('POST', `${p}/integrations/${integration.id}/aliases`, undefined, admin)).body;
      ids = { t: f.template.id, ws: ws.id, view: view.id, schedule: schedule.id, i: integration.id, m: matcher.id, v: value.id, a: alias.id, ia: ownAlias.id };
    });
    afterAll(async () => { await s.close(); });

    const reads = () => [
      '/templates', `/templates/${ids.t}`, `/templates/${ids.t}/tasks`, `/templates/${ids.t}/tasks/last`, `/templates/${ids.t}/schedules`,
      `/templates/${ids.t}/refs`, `/templates/${ids.t}/stats`, '/views', `/views/${ids.view}`, `/views/${ids.view}/templates`,
      '/schedules', `/schedules/${ids.schedule}`, '/integrations', `/integrations/${ids.i}`, `/integrations/${ids.i}/matchers`,
      `/integrations/${ids.i}/values`, `/integrations/${ids.i}/aliases`, '/integrations/aliases', `/integrations/${ids.i}/refs`, '/stats',
    ];
    const writes = (): [string, string, unknown][] => [
      ['POST', '/templates', { name: 'x', app: 'bash', playbook: 'a.sh' }],
      ['PUT', `/templates/${ids.t}`, { name: 'renamed' }],
      ['PUT', `/templates/${ids.t}/description`, { description: 'x' }],
      ['POST', `/templates/${ids.t}/inventory/${ids.ws}/attach`, undefined],
      ['POST', `/templates/${ids.t}/inventory/${ids.ws}/set_default`, undefined],
      ['POST', `/templates/${ids.t}/inventory/${ids.ws}/detach`, undefined],
      ['DELETE', `/templates/${ids.t}`, undefined],
      ['POST', '/views', { title: 'x' }],
      ['PUT', `/views/${ids.view}`, { title: 'x' }],
      ['POST', '/views/positions', { [ids.view]: 3 }],
      ['DELETE', `/views/${ids.view}`, undefined],
      ['POST', '/schedules', { name: 'x', template_id: ids.t, cron_format: '* * * * *' }],
      ['POST', '/schedules/validate', { cron_format: '* * * * *' }],
      ['PUT', `/schedules/${ids.schedule}`, { name: 'x' }],
      ['PUT', `/schedules/${ids.schedule}/active`, { active: false }],
      ['DELETE', `/schedules/${ids.schedule}`, undefined],
      ['POST', '/integrations', { name: 'x', template_id: ids.t }],
      ['PUT', `/integrations/${ids.i}`, { name: 'x' }],
      ['POST', `/integrations/${ids.i}/matchers`, { name: 'm', match_type: 'header', key: 'k', method: 'equals', value: 'v' }],
      ['PUT', `/integrations/${ids.i}/matchers/${ids.m}`, { value: 'w' }],
      ['DELETE', `/integrations/${ids.i}/matchers/${ids.m}`, undefined],
      ['POST', `/integrations/${ids.i}/values`, { name: 'v', value_source: 'header', key: 'k', variable: 'V' }],
      ['PUT', `/integrations/${ids.i}/values/${ids.v}`, { variable: 'W' }],
      ['DELETE', `/integrations/${ids.i}/values/${ids.v}`, undefined],
      ['POST', '/integrations/aliases', undefined],
      ['DELETE', `/integrations/aliases/${ids.a}`, undefined],
      ['POST', `/integrations/${ids.i}/aliases`, undefined],
      ['DELETE', `/integrations/${ids.i}/aliases/${ids.ia}`, undefined],
      ['DELETE', `/integrations/${ids.i}`, undefined],
      ['GET', '/backup', undefined],
    ];

    it('lets every member, guest included, read; non-members get 404', async () => {
      for (const path of reads()) {
        for (const role of ['owner', 'manager', 'task_runner', 'guest']) {
          const res = await s.call('GET', `${p}${path}`, undefined, auth[role]);
          expect([path, role, res.status]).toEqual([path, role, 200]);
        }
        expect([path, (await s.call('GET', `${p}${path}`, undefined, auth.outsider)).status]).toEqual([path, 404]);
      }
    });

    it('refuses writes of task_runner and guest with an empty 403, and of non-members with 404, changing nothing', async () => {
      const before = await countProjectRows(s.deps.db);
      for (const [method, path, body] of writes()) {
        for (const role of ['task_runner', 'guest']) {
          const res = await s.call(method, `${p}${path}`, body, auth[role]);
          expect([method, path, role, res.status, res.text]).toEqual([method, path, role, 403, '']);
        }
        expect([method, path, (await s.call(method, `${p}${path}`, body, auth.outsider)).status]).toEqual([method, path, 404]);
      }
      expect(await countProjectRows(s.deps.db)).toEqual(before);
    });

    it('lets managers and owners write', async () => {
      for (const role of ['manager', 'owner']) {
        const [, , body] = writes()[0]!;
        expect((await s.call('POST', `${p}/templates`, { ...(body as object), repository_id: (await s.call('GET', `${p}/templates/${ids.t}`, undefined, admin)).body.repository_id }, auth[role])).status).toBe(201);
        expect((await s.call('POST', `${p}/views`, { title: role }, auth[role])).status).toBe(201);
        expect((await s.call('POST', `${p}/schedules`, { name: role, template_id: ids.t, cron_format: '@daily' }, auth[role])).status).toBe(201);
        expect((await s.call('POST', `${p}/integrations`, { name: role, template_id: ids.t }, auth[role])).status).toBe(201);
        expect((await s.call('POST', `${p}/integrations/aliases`, undefined, auth[role])).status).toBe(200);
        expect((await s.call('GET', `${p}/backup`, undefined, auth[role])).status).toBe(200);
      }
    });
  });
}
