import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../../../support/dialects.ts';
import { hasStatus, startEngineServer, taskLog, waitForTask, type EngineServer } from '../../../support/engine.ts';
import { insertProjectWithTemplate } from '../../../support/fixtures.ts';
import { gatedScript, sampleActive } from '../../../support/gated-script.ts';

/**
 * Named locks (issue 48): a project's locks with a capacity, listed by templates; a task starts
 * only holding every lock its template needs, and a waiting one says which lock and who holds it.
 * The race: many starts at once over templates with limits and shared locks, sampled from the
 * database while they run.
 */
for (const dialect of DIALECTS) {
  describe(`named locks (${dialect})`, () => {
    let e: EngineServer;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let scripts: string;
    let base: string;
    const api = async (method: string, path: string, body?: unknown) => e.s.call(method, `${base}${path}`, body, e.admin);
    const lock = async (name: string, capacity: number) => {
      const res = await api('POST', '/locks', { name, capacity });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const template = async (name: string, playbook: string, fields: Record<string, unknown>) => {
      const res = await api('POST', '/templates', { name, app: 'bash', playbook, repository_id: fx.repository.id, ...fields });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const post = async (templateId: number) => {
      const res = await api('POST', '/tasks', { template_id: templateId });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };

    beforeAll(async () => {
      e = await startEngineServer(dialect, { SEMAPHORE_MAX_PARALLEL_TASKS: '10' });
      scripts = join(e.s.tmp, 'scripts');
      mkdirSync(scripts, { recursive: true });
      fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'none.sh' });
      base = `/api/project/${fx.project.id}`;
    });
    afterAll(async () => { await e.close(); });

    it('the API keeps locks by name with a capacity, templates list them, and a lock in use is not deleted', async () => {
      const id = await lock('api-lock', 3);
      expect((await api('GET', `/locks/${id}`)).body).toEqual({
        id, project_id: fx.project.id, name: 'api-lock', capacity: 3, description: '', templates: [], held_by: [], waiting: 0,
      });
      expect((await api('POST', '/locks', { name: 'api-lock' })).body.error).toBe(`name: lock ${id} already has the name "api-lock" in this project`);
      expect((await api('POST', '/locks', { name: 'has space' })).status).toBe(400);
      expect((await api('POST', '/locks', { name: 'zero', capacity: 0 })).body.error).toContain('capacity: must be at least 1');
      const tpl = await template('Uses api-lock', 'run.sh', { locks: ['api-lock'] });
      expect((await api('GET', `/templates/${tpl}`)).body.locks).toEqual(['api-lock']);
      expect((await api('GET', `/locks/${id}`)).body.templates).toEqual([tpl]);
      const unknown = await api('POST', '/templates', { name: 'Unknown lock', app: 'bash', playbook: 'run.sh', repository_id: fx.repository.id, locks: ['nope'] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('locks: no lock "nope" in this project');
      const refused = await api('DELETE', `/locks/${id}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(`Lock api-lock is needed by template ${tpl} "Uses api-lock"; remove it there first`);
      expect((await api('PUT', `/locks/${id}`, { name: 'api-lock-2', capacity: 1 })).status).toBe(204);
      expect((await api('GET', `/templates/${tpl}`)).body.locks).toEqual(['api-lock-2']);
      expect((await api('DELETE', `/templates/${tpl}`)).status).toBe(204);
      expect((await api('DELETE', `/locks/${id}`)).status).toBe(204);
      expect((await api('GET', `/locks/${id}`)).status).toBe(404);
    });

    it('a task waits for a lock another template holds, and says which and who holds it', async () => {
      await lock('prod', 1);
      const gate = gatedScript(scripts, 'prod');
      const deploy = await template('Deploy prod', gate.playbook, { locks: ['prod'] });
      const migrate = await template('Migrate prod', gate.playbook, { locks: ['prod'] });
      const first = await post(deploy);
      await waitForTask(e.s.deps.db, first, hasStatus('running'));
      const second = await post(migrate);
      await waitForTask(e.s.deps.db, second, (t) => t.waiting_for !== null);
      expect((await api('GET', `/tasks/${second}`)).body.waiting_for).toEqual({ kind: 'lock', lock: 'prod', task_id: first });
      expect(await taskLog(e.s.deps.db, second)).toEqual([`Waiting for lock prod held by task ${first}`]);
      const shown = (await api('GET', '/locks')).body.find((l: { name: string }) => l.name === 'prod');
      expect(shown).toMatchObject({ held_by: [first], waiting: 1, templates: [deploy, migrate] });
      gate.open();
      expect((await waitForTask(e.s.deps.db, second)).status).toBe('success');
    });

    it('many starts at once: no lock or template past its limit at any sample, first come first served, the newest of cancel_previous wins', async () => {
      await lock('race-prod', 1);
      await lock('race-db', 2);
      await lock('race-staging', 1);
      writeFileSync(join(scripts, 'race.sh'), 'while [ ! -e race.open ]; do sleep 0.05; done\nsleep 0.2\n');
      const specs = [
        { name: 'Race web', limit: 2, locks: ['race-prod'] },
        { name: 'Race migrate', limit: 1, locks: ['race-prod', 'race-db'] },
        // at most two at once (race-db's capacity)
        { name: 'Race report', limit: null, locks: ['race-db'], parallel: true, together: 2 },
        { name: 'Race preview', limit: 1, policy: 'cancel_previous', locks: ['race-staging'] },
      ];
      const ids: number[] = [];
      for (const s of specs) {
        ids.push(await template(s.name, 'race.sh', { concurrency_limit: s.limit, concurrency_policy: s.policy ?? 'queue', locks: s.locks, allow_parallel_tasks: Boolean(s.parallel) }));
      }
      const needs = new Map(ids.map((id, i) => [id, specs[i]!]));
      const sampler = sampleActive(e.s.deps.db, (t) => {
        const spec = needs.get(t.template_id);
        return spec ? [`template ${spec.name}`, ...spec.locks] : [];
      });
      const order = Array.from({ length: 48 }, (_, i) => ids[i % ids.length]!);
      const started = await Promise.all(order.map((templateId) => post(templateId)));
      writeFileSync(join(scripts, 'race.open'), '');
      const done = [];
      for (const id of started) done.push(await waitForTask(e.s.deps.db, id, undefined, 120_000));
      const most = await sampler.stop();

      expect(sampler.samples()).toBeGreaterThan(0);
      for (const [key, limit] of [['race-prod', 1], ['race-db', 2], ['race-staging', 1], ['template Race web', 1], ['template Race migrate', 1], ['template Race preview', 1]] as const) {
        expect(most.get(key) ?? 0, key).toBeLessThanOrEqual(limit);
      }
      for (const [i, spec] of specs.entries()) {
        const mine = done.filter((t) => t.template_id === ids[i]).sort((a, b) => a.id - b.id);
        if (spec.policy === 'cancel_previous') {
          // every start stopped the ones before it: the newest alone ran to its end
          expect(mine.map((t) => t.status)).toEqual([...mine.slice(0, -1).map(() => 'stopped'), 'success']);
          continue;
        }
        expect(mine.map((t) => t.status), spec.name).toEqual(mine.map(() => 'success'));
        // Claimed in arrival order; tasks claimed in the same pass enter running as their
        // preparation ends, in either order, so only tasks further apart than that are ordered.
        const starts = mine.map((t) => t.start!);
        const together = spec.together ?? 1;
        const overtaken = starts.flatMap((start, i) => starts.slice(i + together).filter((later) => later < start).map((later) => `${start} after ${later}`));
        expect(overtaken, `${spec.name} started in arrival order`).toEqual([]);
      }
    });
  });
}
