import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { countProjectRows } from '../../support/project-rows.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`schedules (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let base: string;
    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect));
      base = `/api/project/${f.project.id}/schedules`;
    });
    afterAll(async () => { await s.close(); });

    it('creates a cron schedule (201), lists it with tpl_name, updates, toggles and deletes it', async () => {
      const created = await s.call('POST', base, { name: 'Nightly', template_id: f.template.id, cron_format: '0 3 * * *', task_params: { message: 'nightly' } }, admin);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Nightly', cron_format: '0 3 * * *', active: true, type: '', repository_id: null, task_params: { message: 'nightly' } });
      // unset, left out as Semaphore leaves it out
      expect(created.body).not.toHaveProperty('run_at');
      const id = created.body.id;
      const list = await s.call('GET', base, undefined, admin);
      expect(list.body).toEqual([{ ...created.body, tpl_name: 'Fixture template' }]);
      expect((await s.call('GET', `/api/project/${f.project.id}/templates/${f.template.id}/schedules`, undefined, admin)).body.map((x: any) => x.id)).toEqual([id]);
      expect((await s.call('PUT', `${base}/${id}`, { ...created.body, cron_format: '@hourly' }, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}`, undefined, admin)).body.cron_format).toBe('@hourly');
      expect((await s.call('PUT', `${base}/${id}/active`, { active: false }, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}`, undefined, admin)).body.active).toBe(false);
      expect((await s.call('DELETE', `${base}/${id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}`, undefined, admin)).status).toBe(404);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select('description').where('object_type', '=', 'schedule').orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual([`Schedule ID ${id} created`, `Schedule ID ${id} updated`, `Schedule ID ${id} updated`, `Schedule ID ${id} deleted`]);
    });

    it('stores a repository-commit schedule and a one-shot run_at schedule', async () => {
      const commit = await s.call('POST', base, { name: 'On commit', template_id: f.template.id, cron_format: '* * * * *', repository_id: f.repository.id }, admin);
      expect(commit.body.repository_id).toBe(f.repository.id);
      const when = new Date(Date.now() + 86_400_000).toISOString();
      const once = await s.call('POST', base, { name: 'Once', template_id: f.template.id, type: 'run_at', run_at: when }, admin);
      expect(once.status).toBe(201);
      expect(once.body).toMatchObject({ type: 'run_at', run_at: when, cron_format: '' });
      await s.deps.db.updateTable('schedule').set({ run_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', once.body.id).execute();
      expect((await s.call('PUT', `${base}/${once.body.id}`, { name: 'Once, renamed' }, admin)).status).toBe(204);
      expect((await s.call('PUT', `${base}/${once.body.id}`, { run_at: '2021-01-01T00:00:00Z' }, admin)).body).toEqual({ error: 'run_at: must be in the future' });
      // a time without zone is wall-clock time in the schedule time zone (UTC here)
      const local = await s.call('POST', base, { name: 'Local', template_id: f.template.id, type: 'run_at', run_at: '2099-07-01T09:00:00' }, admin);
      expect(local.body.run_at).toBe('2099-07-01T09:00:00.000Z');
    });

    it('validates cron expressions with POST /validate', async () => {
      for (const ok of ['* * * * *', '@daily', '@every 5m', '0 9 * * 1-5']) {
        const res = await s.call('POST', `${base}/validate`, { cron_format: ok }, admin);
        expect(res.status).toBe(200);
        expect(res.text).toBe('');
      }
      const bad = await s.call('POST', `${base}/validate`, { cron_format: '61 * * * *' }, admin);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/^Cron: .*minute/);
      expect((await s.call('POST', `${base}/validate`, { cron_format: 'often' }, admin)).body.error).toMatch(/^Cron: /);
    });

    const invalid: [string, Record<string, unknown>, string | RegExp][] = [
      ['a missing template', { template_id: undefined }, 'Template is required'],
      ['a template of another project', { template_id: 999999 }, 'template_id: no template 999999 in this project'],
      ['a missing cron', { cron_format: '' }, 'Cron: the cron format is required'],
      ['a bad cron', { cron_format: '* * *' }, /^Cron: /],
      ['a repository of another project', { repository_id: 999999 }, 'repository_id: no repository 999999 in this project'],
      ['a run_at in the past', { type: 'run_at', run_at: '2020-01-01T00:00:00Z' }, 'run_at: must be in the future'],
      ['a run_at that is not a date', { type: 'run_at', run_at: 'tomorrow' }, /^run_at: must be a date-time/],
      ['an unknown type', { type: 'weekly' }, /^type: /],
    ];
    it('makes a schedule without a name, as Semaphore does', async () => {
      const res = await s.call('POST', base, { template_id: f.template.id, cron_format: '* * * 1 *' }, admin);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: '', cron_format: '* * * 1 *', template_id: f.template.id });
      expect((await s.call('DELETE', `${base}/${res.body.id}`, undefined, admin)).status).toBe(204);
    });

    for (const [what, patch, message] of invalid) {
      it(`refuses ${what} with 400 and writes nothing`, async () => {
        const before = await countProjectRows(s.deps.db);
        const res = await s.call('POST', base, { name: 'x', template_id: f.template.id, cron_format: '* * * * *', ...patch }, admin);
        expect(res.status).toBe(400);
        if (typeof message === 'string') expect(res.body.error).toBe(message);
        else expect(res.body.error).toMatch(message);
        expect(await countProjectRows(s.deps.db)).toEqual(before);
      });
    }

    it('refuses an update whose body id differs and a malformed active body', async () => {
      const created = (await s.call('POST', base, { name: 'x', template_id: f.template.id, cron_format: '* * * * *' }, admin)).body;
      expect((await s.call('PUT', `${base}/${created.id}`, { ...created, id: created.id + 1 }, admin)).status).toBe(400);
      expect((await s.call('PUT', `${base}/${created.id}/active`, { active: 'no' }, admin)).status).toBe(400);
      expect((await s.call('PUT', `${base}/${created.id}`, { ...created, cron_format: 'nope' }, admin)).status).toBe(400);
      expect((await s.call('GET', `${base}/${created.id}`, undefined, admin)).body.cron_format).toBe('* * * * *');
    });
  });
}
