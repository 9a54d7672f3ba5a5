import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../../../support/dialects.ts';
import { hasStatus, startEngineServer, taskLog, waitForTask, type EngineServer } from '../../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../../support/fixtures.ts';
import { gatedScript, sampleActive } from '../../../support/gated-script.ts';

/**
 * Per-template concurrency (issue 48): a limit on a template's running tasks, and what a start
 * past it does: waits its turn, stops the earlier ones, or is refused with 409.
 */
for (const dialect of DIALECTS) {
  describe(`a template's concurrency limit (${dialect})`, () => {
    let e: EngineServer;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let scripts: string;
    let base: string;
    const start = (templateId: number) => e.s.call('POST', `${base}/tasks`, { template_id: templateId }, e.admin);
    const post = async (templateId: number) => {
      const res = await start(templateId);
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const template = (name: string, playbook: string, limit: number | null, policy: string) => insertTemplate(e.s.deps.db, fx.project.id, {
      name, playbook, repository_id: fx.repository.id, concurrency_limit: limit, concurrency_policy: policy,
    });
    const task = (id: number) => e.s.deps.db.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    beforeAll(async () => {
      e = await startEngineServer(dialect, { SEMAPHORE_MAX_PARALLEL_TASKS: '10' });
      scripts = join(e.s.tmp, 'scripts');
      mkdirSync(scripts, { recursive: true });
      fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'none.sh' });
      base = `/api/project/${fx.project.id}`;
    });
    afterAll(async () => { await e.close(); });

    it('the API takes and shows the limit and the policy, and refuses nonsense', async () => {
      const body = { name: 'Limited', app: 'bash', playbook: 'run.sh', repository_id: fx.repository.id, concurrency_limit: 3, concurrency_policy: 'cancel_previous' };
      const created = await e.s.call('POST', `${base}/templates`, body, e.admin);
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ concurrency_limit: 3, concurrency_policy: 'cancel_previous' });
      const kept = await e.s.call('PUT', `${base}/templates/${created.body.id}`, { ...body, id: created.body.id, concurrency_limit: undefined, concurrency_policy: undefined }, e.admin);
      expect(kept.status, kept.text).toBe(204);
      expect((await e.s.call('GET', `${base}/templates/${created.body.id}`, undefined, e.admin)).body).toMatchObject({ concurrency_limit: 3, concurrency_policy: 'cancel_previous' });
      const cleared = await e.s.call('PUT', `${base}/templates/${created.body.id}`, { ...body, id: created.body.id, concurrency_limit: null }, e.admin);
      expect(cleared.status, cleared.text).toBe(204);
      expect((await e.s.call('GET', `${base}/templates/${created.body.id}`, undefined, e.admin)).body).toMatchObject({ concurrency_limit: null });
      expect((await e.s.call('GET', `${base}/templates/${fx.template.id}`, undefined, e.admin)).body).toMatchObject({ concurrency_limit: null, concurrency_policy: 'queue' });
      for (const [bad, error] of [
        [{ concurrency_limit: 0 }, 'concurrency_limit: must be at least 1'],
        [{ concurrency_limit: 1.5 }, 'concurrency_limit: must be a whole number'],
        [{ concurrency_policy: 'fail' }, 'concurrency_policy: must be queue, cancel_previous or refuse'],
      ] as const) {
        const res = await e.s.call('POST', `${base}/templates`, { ...body, name: `Bad ${Math.random()}`, ...bad }, e.admin);
        expect(res.status, res.text).toBe(400);
        expect(res.body.error).toContain(error);
      }
    });

    it('queue: at most the limit run at once, the rest wait in arrival order and say why', async () => {
      const gate = gatedScript(scripts, 'queued');
      const tpl = await template('Queued', gate.playbook, 2, 'queue');
      const sampler = sampleActive(e.s.deps.db, (t) => (t.template_id === tpl.id ? ['tpl'] : []));
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await post(tpl.id));
      for (const id of ids.slice(0, 2)) await waitForTask(e.s.deps.db, id, hasStatus('running'));
      await waitForTask(e.s.deps.db, ids[2]!, (t) => t.waiting_for !== null);
      const shown = (await e.s.call('GET', `${base}/tasks/${ids[2]}`, undefined, e.admin)).body;
      expect(shown.waiting_for).toEqual({ kind: 'template', task_id: ids[0], limit: 2 });
      expect(await taskLog(e.s.deps.db, ids[2]!)).toEqual([`Waiting: template limit 2: task ${ids[0]} running`]);
      gate.open();
      const done = [];
      for (const id of ids) done.push(await waitForTask(e.s.deps.db, id));
      const most = await sampler.stop();
      expect(done.map((t) => t.status)).toEqual(ids.map(() => 'success'));
      expect(most.get('tpl')).toBe(2);
      // first come, first served: a later task never started before an earlier one
      const starts = done.map((t) => t.start!);
      expect([...starts].sort()).toEqual(starts);
    });

    it('refuse: a start past the limit answers 409 with the running task, and queues nothing', async () => {
      const gate = gatedScript(scripts, 'refused');
      const tpl = await template('Refusing', gate.playbook, 1, 'refuse');
      const first = await post(tpl.id);
      await waitForTask(e.s.deps.db, first, hasStatus('running'));
      const count = async () => (await e.s.deps.db.selectFrom('task').select('id').where('template_id', '=', tpl.id).execute()).length;
      const res = await start(tpl.id);
      expect(res.status, res.text).toBe(409);
      expect(res.body).toEqual({ error: `Template "Refusing" runs at most 1 task at once: task ${first} is running`, task_id: first });
      expect(await count()).toBe(1);
      gate.open();
      expect((await waitForTask(e.s.deps.db, first)).status).toBe('success');
      expect((await waitForTask(e.s.deps.db, await post(tpl.id))).status).toBe('success');
    });

    it('cancel_previous: each start stops the earlier task, and exactly the newest runs to its end', async () => {
      const gate = gatedScript(scripts, 'newest');
      const tpl = await template('Newest wins', gate.playbook, 1, 'cancel_previous');
      const sampler = sampleActive(e.s.deps.db, (t) => (t.template_id === tpl.id ? ['tpl'] : []));
      const first = await post(tpl.id);
      await waitForTask(e.s.deps.db, first, hasStatus('running'));
      const second = await post(tpl.id);
      const third = await post(tpl.id);
      await waitForTask(e.s.deps.db, third, hasStatus('running'));
      expect((await task(first)).status).toBe('stopped');
      expect((await task(second)).status).toBe('stopped');
      gate.open();
      expect((await waitForTask(e.s.deps.db, third)).status).toBe('success');
      expect((await sampler.stop()).get('tpl')).toBe(1);
    });

    it('without a limit of its own a template keeps Semaphore\'s rule: one at a time, or any number with allow_parallel_tasks', async () => {
      const gate = gatedScript(scripts, 'parallel');
      const tpl = await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Parallel', playbook: gate.playbook, repository_id: fx.repository.id, allow_parallel_tasks: 1 });
      const ids = [await post(tpl.id), await post(tpl.id), await post(tpl.id)];
      for (const id of ids) await waitForTask(e.s.deps.db, id, hasStatus('running'));
      gate.open();
      for (const id of ids) expect((await waitForTask(e.s.deps.db, id)).status).toBe('success');
    });
  });
}
