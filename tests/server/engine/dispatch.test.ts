import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, hasStatus, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import type { BusMessage } from '../../../src/server/events/event-bus.ts';
import { startEngine } from '../../../src/server/engine/engine.ts';
import { now } from '../../../src/server/lib/time.ts';

/** A local-path repository (used in place, no git) with small scripts. */
function writeScripts(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'quick.sh'), 'echo quick\n');
  writeFileSync(join(dir, 'slow.sh'), 'echo slow start\nsleep 1\necho slow end\n');
  writeFileSync(join(dir, 'version.sh'), 'echo "type=$SEMAPHORE_TASK_TYPE target=$SEMAPHORE_TASK_TARGET_VERSION incoming=$SEMAPHORE_TASK_INCOMING_VERSION"\n');
  writeFileSync(join(dir, 'forever.sh'), 'echo forever\nsleep 600\n');
  return dir;
}

for (const dialect of DIALECTS) {
  describe(`queue and dispatch (${dialect})`, () => {
    let e: EngineServer;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const post = async (templateId: number, body: Record<string, unknown> = {}) => {
      const res = await e.s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: templateId, ...body }, e.admin);
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const template = (name: string, playbook: string, extra: Record<string, unknown> = {}) =>
      insertTemplate(e.s.deps.db, fx.project.id, { name, playbook, repository_id: fx.repository.id, ...extra });

    beforeAll(async () => {
      e = await startEngineServer(dialect, { SEMAPHORE_MAX_TASKS_PER_TEMPLATE: '3', SEMAPHORE_MAX_TASK_DURATION_SEC: '2' });
      fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: writeScripts(join(e.s.tmp, 'scripts')), playbook: 'quick.sh' });
    });
    afterAll(async () => { await e.close(); });

    it('runs a queued task at once and publishes update and log messages on the bus', async () => {
      const seen: BusMessage[] = [];
      const unsubscribe = e.s.deps.bus.subscribe((m) => seen.push(m));
      const id = await post(fx.template.id);
      const done = await waitForTask(e.s.deps.db, id);
      await new Promise((r) => setTimeout(r, 200));
      unsubscribe();
      expect(done.status).toBe('success');
      const mine = seen.filter((m) => m.type !== 'workflow' && m.task_id === id);
      expect(mine.filter((m) => m.type === 'update').map((m) => m.status)).toEqual(['waiting', 'starting', 'running', 'success']);
      const logs = mine.filter((m): m is Extract<BusMessage, { type: 'log' }> => m.type === 'log');
      expect(logs.map((m) => m.output)).toContain('quick');
      expect(logs[0]).toMatchObject({ project_id: fx.project.id, task_id: id });
      expect(new Date(logs[0]!.time).toISOString()).toBe(logs[0]!.time);
    });

    it('runs one task per template at a time: the second waits, then runs', async () => {
      const tpl = await template('Serial', 'slow.sh');
      const first = await post(tpl.id);
      const second = await post(tpl.id);
      await waitForTask(e.s.deps.db, first, hasStatus('running'));
      await new Promise((r) => setTimeout(r, 300));
      expect((await waitForTask(e.s.deps.db, second, () => true)).status).toBe('waiting');
      const a = await waitForTask(e.s.deps.db, first);
      const b = await waitForTask(e.s.deps.db, second);
      expect([a.status, b.status]).toEqual(['success', 'success']);
      expect(b.start! >= a.end!).toBe(true);
    });

    it('runs tasks of a template side by side when it allows parallel runs', async () => {
      const tpl = await template('Parallel', 'slow.sh', { allow_parallel_tasks: 1 });
      const ids = [await post(tpl.id), await post(tpl.id)];
      for (const id of ids) await waitForTask(e.s.deps.db, id, hasStatus('running'));
      for (const id of ids) expect((await waitForTask(e.s.deps.db, id)).status).toBe('success');
    });

    it('honours the project max_parallel_tasks: with 1 the second task waits until the first ends', async () => {
      await e.s.deps.db.updateTable('project').set({ max_parallel_tasks: 1 }).where('id', '=', fx.project.id).execute();
      try {
        const one = await template('One', 'slow.sh');
        const two = await template('Two', 'quick.sh');
        const first = await post(one.id);
        await waitForTask(e.s.deps.db, first, hasStatus('running'));
        const second = await post(two.id);
        await new Promise((r) => setTimeout(r, 300));
        expect((await waitForTask(e.s.deps.db, second, () => true)).status).toBe('waiting');
        const a = await waitForTask(e.s.deps.db, first);
        const b = await waitForTask(e.s.deps.db, second);
        expect(b.status).toBe('success');
        expect(b.start! >= a.end!).toBe(true);
      } finally {
        await e.s.deps.db.updateTable('project').set({ max_parallel_tasks: 0 }).where('id', '=', fx.project.id).execute();
      }
    });

    it('ends a task that exceeds max_task_duration_sec as error', async () => {
      const tpl = await template('Forever', 'forever.sh');
      const id = await post(tpl.id);
      const done = await waitForTask(e.s.deps.db, id, undefined, 15_000);
      expect(done.status).toBe('error');
      expect(await taskLog(e.s.deps.db, id)).toContain('Task timed out after 2 seconds');
    });

    it('keeps only max_tasks_per_template finished tasks, deleting the oldest with their output', async () => {
      const tpl = await template('Retained', 'quick.sh');
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(await post(tpl.id));
        await waitForTask(e.s.deps.db, ids.at(-1)!);
      }
      await e.engine.idle();
      const left = await e.s.deps.db.selectFrom('task').select('id').where('template_id', '=', tpl.id).orderBy('id').execute();
      expect(left.map((r) => r.id)).toEqual(ids.slice(2));
      expect(await taskLog(e.s.deps.db, ids[0]!)).toEqual([]);
    });

    it('autoruns deploy templates after a successful build, passing the version on', async () => {
      const build = await template('Build', 'version.sh', { type: 'build', start_version: 'v5-beta' });
      const deploy = await template('Deploy', 'version.sh', { type: 'deploy', build_template_id: build.id, autorun: 1 });
      const buildId = await post(build.id);
      expect((await waitForTask(e.s.deps.db, buildId)).status).toBe('success');
      expect(await taskLog(e.s.deps.db, buildId)).toContain('type=build target=v5-beta incoming=');
      await e.engine.idle();
      const deployTask = await e.s.deps.db.selectFrom('task').selectAll().where('template_id', '=', deploy.id).executeTakeFirstOrThrow();
      expect(deployTask.build_task_id).toBe(buildId);
      expect(deployTask.user_id).toBeNull();
      expect((await waitForTask(e.s.deps.db, deployTask.id)).status).toBe('success');
      expect(await taskLog(e.s.deps.db, deployTask.id)).toContain('type=deploy target= incoming=v5-beta');
      const list = await e.s.call('GET', `/api/project/${fx.project.id}/tasks`, undefined, e.admin);
      expect(list.body.find((t: { id: number }) => t.id === deployTask.id).build_task).toMatchObject({ id: buildId, version: 'v5-beta' });
      const second = await post(build.id);
      expect((await waitForTask(e.s.deps.db, second)).version).toBe('v6-beta');
    });

    it('runs tasks queued while no engine ran (the queue is the table), failing one whose survey secret is gone', async () => {
      await e.engine.stop();
      const secretive = await template('Secretive', 'quick.sh', { survey_vars: JSON.stringify([{ name: 'token', title: 'Token', type: 'secret', required: true }]) });
      const queue = (templateId: number) => e.s.deps.db.insertInto('task').values({
        project_id: fx.project.id, template_id: templateId, status: 'waiting', playbook: '', environment: '{}', message: '', commit_message: '', params: '{}', created: now(),
      }).returning('id').executeTakeFirstOrThrow();
      const plain = await queue(fx.template.id);
      const lost = await queue(secretive.id);
      e.engine = await startEngine(e.s.deps);
      expect((await waitForTask(e.s.deps.db, plain.id)).status).toBe('success');
      expect((await waitForTask(e.s.deps.db, lost.id)).status).toBe('error');
      expect((await taskLog(e.s.deps.db, lost.id)).join('\n')).toMatch(/the secret value of Token is gone/);
    });

    it('does not autorun deploys after a failed build', async () => {
      const build = await template('Bad build', 'missing.sh', { type: 'build', start_version: '1' });
      await template('Bad deploy', 'version.sh', { type: 'deploy', build_template_id: build.id, autorun: 1 });
      const id = await post(build.id);
      expect((await waitForTask(e.s.deps.db, id)).status).toBe('error');
      await e.engine.idle();
      const deploys = await e.s.deps.db.selectFrom('task').select('id').where('build_task_id', '=', id).execute();
      expect(deploys).toEqual([]);
    });
  });
}

describe('global max_parallel_tasks (sqlite)', () => {
  let e: EngineServer;
  beforeAll(async () => { e = await startEngineServer('sqlite', { SEMAPHORE_MAX_PARALLEL_TASKS: '1' }); });
  afterAll(async () => { await e.close(); });

  it('with 1, a task of another project waits until the running one ends', async () => {
    const dir = writeScripts(join(e.s.tmp, 'scripts'));
    const a = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: dir, playbook: 'slow.sh' });
    const b = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: dir, playbook: 'quick.sh' });
    const first = (await e.s.call('POST', `/api/project/${a.project.id}/tasks`, { template_id: a.template.id }, e.admin)).body.id;
    await waitForTask(e.s.deps.db, first, hasStatus('running'));
    const second = (await e.s.call('POST', `/api/project/${b.project.id}/tasks`, { template_id: b.template.id }, e.admin)).body.id;
    await new Promise((r) => setTimeout(r, 300));
    const active = await e.s.call('GET', '/api/tasks', undefined, e.admin);
    expect(active.body.map((t: { task_id: number; location: string }) => [t.task_id, t.location])).toEqual([[second, 'queue'], [first, 'running']]);
    const one = await waitForTask(e.s.deps.db, first);
    const two = await waitForTask(e.s.deps.db, second);
    expect(two.status).toBe('success');
    expect(two.start! >= one.end!).toBe(true);
  });
});
