import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../../support/harness.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../../support/fixtures.ts';
import { claimNextTask } from '../../../../src/server/engine/queue/claim-task.ts';
import { enqueueTask } from '../../../../src/server/domain/tasks/enqueue-task.ts';
import { AGING_SECONDS } from '../../../../src/server/domain/tasks/priority.ts';

/**
 * Priorities with aging (issue 48): the claim takes high before normal before low, first come
 * first served within one, and a task's wait raises it (AGING_SECONDS per level), so an old low
 * one goes before a new high one. Ages are given as the rows' arrival times, not slept.
 */
for (const dialect of DIALECTS) {
  describe(`the queue's priorities (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let templates: number[];
    const post = async (templateId: number, priority?: string) => {
      const res = await s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: templateId, ...(priority ? { priority } : {}) }, admin);
      expect(res.status, res.text).toBe(201);
      expect(res.body.priority).toBe(priority ?? 'normal');
      return res.body.id as number;
    };
    /** claims until nothing is left: the order the queue hands its tasks out */
    const drain = async () => {
      const order: number[] = [];
      for (let task = await claimNextTask(s.deps.db, 'test-claimer', 0); task; task = await claimNextTask(s.deps.db, 'test-claimer', 0)) order.push(task.id);
      return order;
    };
    const queuedAgo = async (templateId: number, priority: 'high' | 'normal' | 'low', seconds: number) => (await enqueueTask(s.deps, {
      projectId: fx.project.id, templateId, priority, created: new Date(Date.now() - seconds * 1000).toISOString(),
    })).id;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      templates = [];
      for (const name of ['A', 'B', 'C']) templates.push((await insertTemplate(s.deps.db, fx.project.id, { name, allow_parallel_tasks: 1 })).id);
    });
    afterAll(async () => { await s.close(); });

    it('a start names its priority (normal when it names none) and the API refuses any other word', async () => {
      const id = await post(templates[0]!, 'low');
      expect((await s.call('GET', `/api/project/${fx.project.id}/tasks/${id}`, undefined, admin)).body.priority).toBe('low');
      const bad = await s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: templates[0], priority: 'urgent' }, admin);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('priority: must be high, normal or low');
      expect(await drain()).toEqual([id]);
    });

    it('within one priority, first come first served, across templates', async () => {
      const normal = [await post(templates[0]!), await post(templates[1]!), await post(templates[0]!), await post(templates[2]!)];
      const low = [await post(templates[1]!, 'low'), await post(templates[0]!, 'low')];
      expect(await drain()).toEqual([...normal, ...low]);
    });

    it('high before normal before low, whatever the order they came in, also within one template', async () => {
      const n1 = await post(templates[0]!, 'normal');
      const l1 = await post(templates[1]!, 'low');
      const h1 = await post(templates[0]!, 'high');
      const n2 = await post(templates[2]!);
      const h2 = await post(templates[1]!, 'high');
      expect(await drain()).toEqual([h1, h2, n1, n2, l1]);
    });

    it('age raises priority: a low task waiting two aging steps longer goes before a new high one, one waiting less does not', async () => {
      const oldLow = await queuedAgo(templates[0]!, 'low', 2 * AGING_SECONDS + 60);
      const newHigh = await post(templates[1]!, 'high');
      expect(await drain()).toEqual([oldLow, newHigh]);
      const recentLow = await queuedAgo(templates[0]!, 'low', 2 * AGING_SECONDS - 60);
      const high = await post(templates[1]!, 'high');
      const olderNormal = await queuedAgo(templates[2]!, 'normal', AGING_SECONDS + 60);
      expect(await drain()).toEqual([olderNormal, high, recentLow]);
    });

    it('a blocked template does not hold back the others, and its first in the queue is still first once it may start', async () => {
      const busy = await insertTemplate(s.deps.db, fx.project.id, { name: 'One at a time', allow_parallel_tasks: 0 });
      const first = await post(busy.id, 'low');
      const urgent = await post(busy.id, 'high');
      const other = await post(templates[0]!, 'low');
      expect(await claimNextTask(s.deps.db, 'test-claimer', 0)).toMatchObject({ id: urgent });
      expect(await drain()).toEqual([other]);
      await s.deps.db.updateTable('task').set({ status: 'success' }).where('id', '=', urgent).execute();
      expect(await drain()).toEqual([first]);
    });
  });
}
