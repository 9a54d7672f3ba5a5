import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { hasStatus, startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { gatedScript } from '../../support/gated-script.ts';
import { checkRunners } from '../../../src/server/engine/remote/runner-monitor.ts';

/**
 * A waiting task says what it waits for (issue 46): in its log (once per reason) and as
 * `waiting_for` in the task and the lists, for each limit of the queue's claim.
 */
for (const dialect of DIALECTS) {
  describe(`what a waiting task waits for (${dialect})`, () => {
    let e: EngineServer;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let scripts: string;
    const post = async (templateId: number) => {
      const res = await e.s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: templateId }, e.admin);
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const template = (name: string, playbook: string) => insertTemplate(e.s.deps.db, fx.project.id, { name, playbook, repository_id: fx.repository.id });
    const shown = async (id: number) => (await e.s.call('GET', `/api/project/${fx.project.id}/tasks/${id}`, undefined, e.admin)).body;
    const waitingFor = (id: number) => waitForTask(e.s.deps.db, id, (t) => t.waiting_for !== null);

    beforeAll(async () => {
      e = await startEngineServer(dialect, { SEMAPHORE_MAX_PARALLEL_TASKS: '2' });
      scripts = join(e.s.tmp, 'scripts');
      mkdirSync(scripts, { recursive: true });
      fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'none.sh' });
    });
    afterAll(async () => { await e.close(); });

    it('a second task of a template that runs one at a time waits for the first, and says so', async () => {
      const gate = gatedScript(scripts, 'serial');
      const tpl = await template('Serial', gate.playbook);
      const first = await post(tpl.id);
      await waitForTask(e.s.deps.db, first, hasStatus('running'));
      const second = await post(tpl.id);
      await waitingFor(second);
      expect((await shown(second)).waiting_for).toEqual({ kind: 'template', task_id: first });
      expect(await taskLog(e.s.deps.db, second)).toEqual([`Waiting for task ${first} of this template (the template runs one task at a time)`]);
      const listed = (await e.s.call('GET', `/api/project/${fx.project.id}/tasks`, undefined, e.admin)).body;
      expect(listed.find((t: { id: number }) => t.id === second).waiting_for).toEqual({ kind: 'template', task_id: first });
      const pool = (await e.s.call('GET', '/api/tasks', undefined, e.admin)).body;
      expect(pool.find((t: { task_id: number }) => t.task_id === second).waiting_for).toEqual({ kind: 'template', task_id: first });

      gate.open();
      const done = await waitForTask(e.s.deps.db, second);
      expect(done.status).toBe('success');
      expect(done.waiting_for).toBeNull();
      expect(await shown(second)).not.toHaveProperty('waiting_for');
      // said once, however many times the queue looked at it
      expect((await taskLog(e.s.deps.db, second)).filter((l) => l.startsWith('Waiting'))).toHaveLength(1);
    });

    it("a task past the project's limit waits for a free slot in the project", async () => {
      await e.s.deps.db.updateTable('project').set({ max_parallel_tasks: 1 }).where('id', '=', fx.project.id).execute();
      try {
        const gate = gatedScript(scripts, 'project');
        const first = await post((await template('Project one', gate.playbook)).id);
        await waitForTask(e.s.deps.db, first, hasStatus('running'));
        const second = await post((await template('Project two', gate.playbook)).id);
        await waitingFor(second);
        expect((await shown(second)).waiting_for).toEqual({ kind: 'project', running: 1, limit: 1 });
        expect(await taskLog(e.s.deps.db, second)).toEqual(['Waiting for a free slot in this project: 1 of 1 tasks running']);
        gate.open();
        expect((await waitForTask(e.s.deps.db, second)).status).toBe('success');
      } finally {
        await e.s.deps.db.updateTable('project').set({ max_parallel_tasks: 0 }).where('id', '=', fx.project.id).execute();
      }
    });

    it("a task past the server's max_parallel_tasks waits for a free slot", async () => {
      const gate = gatedScript(scripts, 'slots');
      const running = [await post((await template('Slot one', gate.playbook)).id), await post((await template('Slot two', gate.playbook)).id)];
      for (const id of running) await waitForTask(e.s.deps.db, id, hasStatus('running'));
      const third = await post((await template('Slot three', gate.playbook)).id);
      await waitingFor(third);
      expect((await shown(third)).waiting_for).toEqual({ kind: 'slots', running: 2, limit: 2 });
      expect(await taskLog(e.s.deps.db, third)).toEqual(['Waiting for a free slot: 2 tasks running (the server runs at most 2)']);
      gate.open();
      expect((await waitForTask(e.s.deps.db, third)).status).toBe('success');
    });

    it('a task whose runner tag no online runner has waits for a runner (the runner monitor says so)', async () => {
      const tagged = await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Tagged', playbook: 'none.sh', repository_id: fx.repository.id, runner_tag: 'gpu' });
      const id = await post(tagged.id);
      await checkRunners(e.s.deps, new Set());
      await checkRunners(e.s.deps, new Set());
      expect((await shown(id)).waiting_for).toEqual({ kind: 'runner', tag: 'gpu' });
      expect(await taskLog(e.s.deps.db, id)).toEqual(['Waiting for a runner: no active runner with the tag "gpu" is online']);
      await e.s.call('POST', `/api/project/${fx.project.id}/tasks/${id}/stop`, {}, e.admin);
    });
  });
}
