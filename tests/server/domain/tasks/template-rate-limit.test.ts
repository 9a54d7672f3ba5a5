import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../../support/harness.ts';
import { insertAdminProject, insertIntegration, insertSchedule, listDeliveryRows } from '../../../support/trigger-fixtures.ts';
import { insertTemplate } from '../../../support/fixtures.ts';
import { fireSchedule } from '../../../../src/server/scheduler/fire-schedule.ts';

/**
 * Rate limits for triggers (issue 48): a template starts at most N tasks per window from
 * schedules and webhooks; past it a webhook is answered 429 with Retry-After and a schedule's
 * firing is skipped, each recorded where people look. A person's start is never refused by it.
 */
for (const dialect of DIALECTS) {
  describe(`a template's rate limit for triggers (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: Awaited<ReturnType<typeof insertAdminProject>>;
    let base: string;
    const limited = (name: string) => insertTemplate(s.deps.db, f.project.id, {
      name, playbook: 'run.sh', repository_id: f.repository.id, allow_parallel_tasks: 1, rate_limit_starts: 2, rate_limit_window: '1h',
    });
    const refusal = (name: string) => `Template "${name}" starts at most 2 tasks per 1h from schedules and webhooks; this start is skipped`;
    const countTasks = async (templateId: number) => (await s.deps.db.selectFrom('task').select('id').where('template_id', '=', templateId).execute()).length;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      f = await insertAdminProject(s);
      base = `/api/project/${f.project.id}`;
    });
    afterAll(async () => { await s.close(); });

    it('the API takes the limit as a count and a duration, both or neither', async () => {
      const body = { name: 'Rate API', app: 'bash', playbook: 'run.sh', repository_id: f.repository.id };
      const created = await s.call('POST', `${base}/templates`, { ...body, rate_limit_starts: 5, rate_limit_window: '10m' }, admin);
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ rate_limit_starts: 5, rate_limit_window: '10m' });
      for (const [bad, error] of [
        [{ rate_limit_starts: 5 }, 'rate_limit_starts, rate_limit_window: give both, or neither'],
        [{ rate_limit_starts: 5, rate_limit_window: 'soon' }, 'rate_limit_window: must be a duration such as 30s, 10m or 1h'],
        [{ rate_limit_starts: 0, rate_limit_window: '1m' }, 'rate_limit_starts: must be at least 1'],
      ] as const) {
        const res = await s.call('POST', `${base}/templates`, { ...body, name: `Rate bad ${Math.random()}`, ...bad }, admin);
        expect(res.status, res.text).toBe(400);
        expect(res.body.error).toContain(error);
      }
      const cleared = await s.call('PUT', `${base}/templates/${created.body.id}`, { ...body, id: created.body.id, rate_limit_starts: null, rate_limit_window: null }, admin);
      expect(cleared.status, cleared.text).toBe(204);
      expect((await s.call('GET', `${base}/templates/${created.body.id}`, undefined, admin)).body).toMatchObject({ rate_limit_starts: null, rate_limit_window: null });
    });

    it('a webhook past the limit gets 429 with Retry-After, its delivery says why, and nothing more is queued', async () => {
      const tpl = await limited('Rate hook');
      const { integration, alias } = await insertIntegration(s, f.project.id, tpl.id);
      const deliver = () => s.api.request(`/api/integrations/${alias}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect((await deliver()).status).toBe(204);
      expect((await deliver()).status).toBe(204);
      const third = await deliver();
      expect(third.status).toBe(429);
      expect(await third.json()).toEqual({ error: refusal('Rate hook') });
      const retryAfter = Number(third.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await countTasks(tpl.id)).toBe(2);
      const deliveries = await listDeliveryRows(s.deps.db, integration.id);
      expect(deliveries.at(-1)).toMatchObject({ task_id: null, reason: `failed to start task: ${refusal('Rate hook')}` });
      // a person's start is theirs to decide
      const byHand = await s.call('POST', `${base}/tasks`, { template_id: tpl.id }, admin);
      expect(byHand.status, byHand.text).toBe(201);
    });

    it('a schedule firing past the limit is skipped and says so on the schedule', async () => {
      const tpl = await limited('Rate schedule');
      const schedule = await insertSchedule(s.deps.db, { project_id: f.project.id, template_id: tpl.id });
      const fired = [];
      for (const minute of [1, 2, 3]) fired.push(await fireSchedule(s.deps, schedule, new Date(Date.UTC(2026, 0, 1, 0, minute))));
      expect(fired.map((t) => t !== null)).toEqual([true, true, false]);
      expect(await countTasks(tpl.id)).toBe(2);
      const shown = (await s.call('GET', `${base}/schedules/${schedule.id}`, undefined, admin)).body;
      expect(shown.last_error).toBe(refusal('Rate schedule'));
    });
  });
}
