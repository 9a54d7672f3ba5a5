import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { SUMMARY_INVENTORY, SUMMARY_PLAYBOOK } from '../../support/ansible-summary-playbook.ts';

for (const dialect of DIALECTS) {
  describe(`task summary of a real ansible-playbook run (${dialect})`, () => {
    let e: EngineServer;
    let base: string;
    let taskId: number;
    const get = async (path: string) => {
      const res = await e.s.call('GET', `${base}/tasks/${taskId}${path}`, undefined, e.admin);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };

    beforeAll(async () => {
      e = await startEngineServer(dialect);
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'site.yml': SUMMARY_PLAYBOOK }, 'Add playbook');
      const fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, inventory: SUMMARY_INVENTORY });
      const tpl = await insertTemplate(e.s.deps.db, fx.project.id, {
        name: 'Summary', app: 'ansible', playbook: 'site.yml', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id,
      });
      base = `/api/project/${fx.project.id}`;
      const res = await e.s.call('POST', `${base}/tasks`, { template_id: tpl.id }, e.admin);
      taskId = res.body.id;
      const done = await waitForTask(e.s.deps.db, taskId, undefined, 120_000);
      expect(done.status, (await taskLog(e.s.deps.db, taskId)).join('\n')).toBe('error');
    }, 180_000);
    afterAll(async () => { await e.close(); });

    it('stores one host row per PLAY RECAP line with its counts', async () => {
      const log = await taskLog(e.s.deps.db, taskId);
      const recap = log.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '')).filter((l) => /^\S+\s+: ok=/.test(l));
      expect(recap).toHaveLength(3);
      const hosts = await get('/ansible/hosts');
      expect(hosts.map((h: { host: string }) => h.host).sort()).toEqual(['calm-host', 'localhost', 'unreachable-host']);
      const byName = Object.fromEntries(hosts.map((h: { host: string }) => [h.host, h]));
      // localhost: ping ok, the ignored command counts ok (and changed) and ignored, then the failure
      expect(byName.localhost).toMatchObject({ task_id: taskId, ok: 2, changed: 1, unreachable: 0, failed: 1, skipped: 0, rescued: 0, ignored: 1 });
      expect(byName['calm-host']).toMatchObject({ ok: 2, changed: 0, unreachable: 0, failed: 0, skipped: 2, ignored: 0 });
      expect(byName['unreachable-host']).toMatchObject({ task_id: taskId, ok: 0, unreachable: 1, failed: 0 });
      for (const line of recap) {
        const host = byName[line.split(/\s+/)[0]!];
        expect(line).toMatch(new RegExp(`ok=${host.ok}\\s+changed=${host.changed}\\s+unreachable=${host.unreachable}\\s+failed=${host.failed}\\s+skipped=${host.skipped}\\s+rescued=${host.rescued}\\s+ignored=${host.ignored}`));
      }
      expect(typeof byName.localhost.created).toBe('string');
    });

    it('stores each failed or unreachable task with its name and message, not the ignored one', async () => {
      const errors = await get('/ansible/errors');
      expect(errors.map((x: { host: string; task: string }) => [x.host, x.task]).sort()).toEqual([
        ['localhost', 'break on purpose'],
        ['unreachable-host', 'check the connection'],
      ]);
      const byHost = Object.fromEntries(errors.map((x: { host: string }) => [x.host, x]));
      expect(byHost.localhost.error).toBe('disk is full on localhost');
      expect(byHost['unreachable-host'].error).toMatch(/port 1|connect/i);
      expect(byHost.localhost).toMatchObject({ task_id: taskId, project_id: expect.any(Number), created: expect.any(String) });
    });

    it('stores the stages in order, with times and the output lines each began and ended at', async () => {
      const stages = await get('/stages');
      expect(stages.map((s: { type: string }) => s.type)).toEqual(['init', 'running', 'print_result']);
      const log = await e.s.deps.db.selectFrom('task_output').select(['id', 'output']).where('task_id', '=', taskId).orderBy('id').execute();
      const lineOf = (id: number) => log.find((l) => l.id === id)?.output ?? '';
      for (const stage of stages) {
        expect(stage).toMatchObject({ task_id: taskId, start: expect.any(String), end: expect.any(String), result: null });
        expect(stage.start <= stage.end).toBe(true);
        expect(stage.start_output_id).toBeLessThanOrEqual(stage.end_output_id);
      }
      const linesOf = (stage: { start_output_id: number; end_output_id: number }) =>
        log.filter((l) => l.id >= stage.start_output_id && l.id <= stage.end_output_id).map((l) => l.output).join('\n');
      expect(stages[0].start_output_id).toBe(log[0]!.id);
      expect(lineOf(stages[0].start_output_id)).toBe(`Started: ${taskId}`);
      expect(stages[1].start_output_id).toBeGreaterThan(stages[0].end_output_id);
      expect(stages[2].start_output_id).toBeGreaterThan(stages[1].end_output_id);
      expect(linesOf(stages[0])).toContain('Run TaskRunner with template: Summary');
      expect(linesOf(stages[1])).toMatch(/PLAY \[all\][\s\S]*TASK \[break on purpose\]/);
      expect(linesOf(stages[1])).not.toContain('PLAY RECAP');
      expect(lineOf(stages[2].start_output_id)).toMatch(/PLAY RECAP/);
      expect(stages[2].end_output_id).toBe(log[log.length - 1]!.id);
    });

    it('deletes the summary with its task', async () => {
      expect((await e.s.call('DELETE', `${base}/tasks/${taskId}`, undefined, e.admin)).status).toBe(204);
      for (const table of ['task_stage', 'task_ansible_host', 'task_ansible_error'] as const) {
        expect(await e.s.deps.db.selectFrom(table).select('id').where('task_id', '=', taskId).execute(), table).toEqual([]);
      }
    });
  });
}
