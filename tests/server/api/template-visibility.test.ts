import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Permission } from '../../../src/server/access/permissions.ts';
import { now } from '../../../src/server/lib/time.ts';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import { insertProjectResources, type ResourceIds } from '../../support/resource-rows.ts';

// Bit 16 (ViewTemplates, Semaphore develop's template visibility): a custom role without it
// sees no template, and so no task, log or schedule of one, on any route; with it, all as before.

/** The guest of a fresh world with project resources, holding a custom role of `bits`. */
async function memberWith(s: TestServer, bits: number): Promise<{ w: World; ids: ResourceIds }> {
  const { db } = s.deps;
  const w = await buildWorld(db);
  const ids = await insertProjectResources(db, w.projectId);
  await db.insertInto('project_role').values({ project_id: w.projectId, slug: 'custom', name: 'Custom', permissions: bits, created: now() }).execute();
  await db.updateTable('project_user').set({ role: 'custom' }).where('project_id', '=', w.projectId).where('user_id', '=', w.users.guest.id).execute();
  return { w, ids };
}

/** Every read route naming one template, task or schedule. */
const SINGLE_ROUTES = (p: string, ids: ResourceIds) => [
  `${p}/templates/${ids.template}`, `${p}/templates/${ids.template}/tasks`, `${p}/templates/${ids.template}/tasks/last`,
  `${p}/templates/${ids.template}/schedules`, `${p}/templates/${ids.template}/refs`, `${p}/templates/${ids.template}/stats`,
  `${p}/tasks/${ids.task}`, `${p}/tasks/${ids.task}/output`, `${p}/tasks/${ids.task}/raw_output`, `${p}/tasks/${ids.task}/output/download`,
  `${p}/tasks/${ids.task}/output/search?q=a`, `${p}/tasks/${ids.task}/stages`, `${p}/tasks/${ids.task}/ansible/hosts`,
  `${p}/schedules/${ids.schedule}`,
];

/** Every list route that holds templates, tasks or schedules. */
const LIST_ROUTES = (p: string, ids: ResourceIds) => [
  `${p}/templates`, `${p}/templates?limit=10`, `${p}/views/${ids.view}/templates`, `${p}/tasks`, `${p}/tasks?limit=10&offset=0`,
  `${p}/tasks?status=success`, `${p}/tasks/last`, `${p}/schedules`,
];

for (const dialect of DIALECTS) {
  describe(`template visibility, bit 16 (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('a custom role without it sees no template, task, log or schedule: lists empty, the rest 404 as if missing', async () => {
      const { w, ids } = await memberWith(s, Permission.RunTasks | Permission.ManageResources);
      const p = `/api/project/${w.projectId}`;
      const lists: Record<string, unknown> = {};
      for (const url of LIST_ROUTES(p, ids)) lists[url] = (await s.call('GET', url, undefined, w.auth.guest)).body;
      expect(lists).toEqual(Object.fromEntries(LIST_ROUTES(p, ids).map((url) => [url, []])));
      const counted = await s.call('GET', `${p}/tasks?limit=10&offset=0`, undefined, w.auth.guest);
      expect(counted.headers.get('x-total-count')).toBe('0');
      const singles: Record<string, number> = {};
      for (const url of SINGLE_ROUTES(p, ids)) singles[url] = (await s.call('GET', url, undefined, w.auth.guest)).status;
      expect(singles).toEqual(Object.fromEntries(SINGLE_ROUTES(p, ids).map((url) => [url, 404])));
    });

    it('a custom role without it changes no template or schedule and starts nothing, answered as for one that is missing', async () => {
      const { w, ids } = await memberWith(s, Permission.RunTasks | Permission.ManageResources);
      const p = `/api/project/${w.projectId}`;
      const missing = await s.call('POST', `${p}/tasks`, { template_id: 999_999 }, w.auth.guest);
      const hidden = await s.call('POST', `${p}/tasks`, { template_id: ids.template }, w.auth.guest);
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual(missing.body);
      expect((await s.call('PUT', `${p}/templates/${ids.template}/description`, { description: 'x' }, w.auth.guest)).status).toBe(404);
      expect((await s.call('DELETE', `${p}/templates/${ids.template}`, undefined, w.auth.guest)).status).toBe(404);
      expect((await s.call('DELETE', `${p}/schedules/${ids.schedule}`, undefined, w.auth.guest)).status).toBe(404);
      expect((await s.call('POST', `${p}/tasks/${ids.task}/stop`, {}, w.auth.guest)).status).toBe(404);
      const row = await s.deps.db.selectFrom('template').select('description').where('id', '=', ids.template).executeTakeFirstOrThrow();
      expect(row.description).not.toBe('x');
      expect(await s.deps.db.selectFrom('schedule').select('id').where('id', '=', ids.schedule).executeTakeFirst()).toBeDefined();
    });

    it('with it the same role sees the template, its tasks and schedules, and starts it', async () => {
      const { w, ids } = await memberWith(s, Permission.RunTasks | Permission.ViewTemplates);
      const p = `/api/project/${w.projectId}`;
      const templates = await s.call('GET', `${p}/templates`, undefined, w.auth.guest);
      expect(templates.body.map((t: { id: number }) => t.id)).toContain(ids.template);
      expect((await s.call('GET', `${p}/tasks`, undefined, w.auth.guest)).body.map((t: { id: number }) => t.id)).toContain(ids.task);
      expect((await s.call('GET', `${p}/schedules`, undefined, w.auth.guest)).body.map((t: { id: number }) => t.id)).toContain(ids.schedule);
      const singles: Record<string, number> = {};
      for (const url of SINGLE_ROUTES(p, ids)) singles[url] = (await s.call('GET', url, undefined, w.auth.guest)).status;
      expect(singles).toEqual(Object.fromEntries(SINGLE_ROUTES(p, ids).map((url) => [url, 200])));
      const started = await s.call('POST', `${p}/tasks`, { template_id: ids.template }, w.auth.guest);
      expect(started.status).toBe(201);
    });
  });
}
