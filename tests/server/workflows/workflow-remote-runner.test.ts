import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, type EngineServer } from '../../support/engine.ts';
import { listenOnLoopback } from '../../support/listen.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../../support/runner-process.ts';

const REGISTRATION = 'registration-secret-wf-31';

const SURVEY = JSON.stringify([
  { name: 'image_tag', title: 'Image tag', type: '', required: true },
  { name: 'replicas', title: 'Replicas', type: 'int' },
]);

function writeScripts(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'build.sh'), [
    'echo "workflow=$SEMAPHORE_WORKFLOW_ID run=$SEMAPHORE_WORKFLOW_RUN_ID url=$SEMAPHORE_WORKFLOW_URL"',
    `printf '%s' '{"image_tag": "7.1.0", "replicas": 4}' > "$SEMAPHORE_OUTPUTS_FILE"`,
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'deploy.sh'), 'echo "deploy args: $*"\n');
  writeFileSync(join(dir, 'bad-outputs.sh'), `printf '[1, 2]' > "$SEMAPHORE_OUTPUTS_FILE"\n`);
  return dir;
}

/**
 * Workflow tasks on a real remote runner process: the runner gets the run's context (the same
 * environment variables as a task run by the server), reads its outputs file after success and
 * sends it with the final status; the server judges it with the same limits and the run goes on
 * with the outputs. A report breaking the rules (a bad file, or a runner lying) fails the task.
 */
for (const dialect of DIALECTS) {
  describe(`workflow tasks on a remote runner (${dialect})`, () => {
    let srv: EngineServer;
    let stopHttp: () => Promise<void>;
    let dir: string;
    let url: string;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let runner: { id: number; proc?: RunnerChild };
    const tpl: Record<string, number> = {};
    const api = (method: string, path: string, body?: unknown) => srv.s.call(method, `/api/project/${fx.project.id}${path}`, body, srv.admin);
    const details = async (wf: number, run: number) => (await api('GET', `/workflows/${wf}/runs/${run}`)).body;
    const nodeState = (d: any, name: string) => d.nodes.find((n: any) => n.node.name === name);
    const waitRun = (wf: number, run: number) => until('the run to end', async () => {
      const d = await details(wf, run);
      return ['success', 'failed', 'stopped'].includes(d.run.status) ? d : null;
    }, 90_000);
    const startFlow = async (body: Record<string, unknown>) => {
      const created = await api('POST', '/workflows', body);
      expect(created.status, created.text).toBe(201);
      const run = await api('POST', `/workflows/${created.body.id}/run`, {});
      expect(run.status, run.text).toBe(201);
      return { wf: created.body.id as number, run: run.body.id as number };
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'signalbox-wf-runner-'));
      srv = await startEngineServer(dialect, { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SIGNALBOX_RUNNER_POLL_HOLD_MS: '5000' });
      stopHttp = await listenOnLoopback(srv.s);
      url = srv.s.config.web_host;
      fx = await insertProjectWithTemplate(srv.s.deps.db, { ownerId: 1, gitUrl: writeScripts(join(dir, 'scripts')), playbook: 'build.sh', templateName: 'Build' });
      const more = { repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id };
      await srv.s.deps.db.updateTable('template').set({ runner_tag: 'wf' }).where('id', '=', fx.template.id).execute();
      tpl.build = fx.template.id;
      tpl.deploy = (await insertTemplate(srv.s.deps.db, fx.project.id, { name: 'Deploy', playbook: 'deploy.sh', survey_vars: SURVEY, ...more })).id;
      tpl.bad = (await insertTemplate(srv.s.deps.db, fx.project.id, { name: 'Bad outputs', playbook: 'bad-outputs.sh', runner_tag: 'wf', ...more })).id;
      tpl.rogue = (await insertTemplate(srv.s.deps.db, fx.project.id, { name: 'Rogue', playbook: 'deploy.sh', runner_tag: 'rogue', ...more })).id;
      tpl.infra = (await insertTemplate(srv.s.deps.db, fx.project.id, {
        name: 'Infra', app: 'terraform', playbook: '', repository_id: fx.repository.id, runner_tag: 'wf', task_params: JSON.stringify({ allow_auto_approve: true }),
      })).id;
      // the fake terraform, for the runner's tasks only
      const env = runnerEnv(url, join(dir, 'runner'), { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, PATH: `${join(import.meta.dirname, '../../fakes')}:${process.env.PATH ?? ''}` });
      await registerRunner(env, ['--name', 'wf-runner', '--tags', 'wf']);
      const { id } = await srv.s.deps.db.selectFrom('runner').select('id').where('name', '=', 'wf-runner').executeTakeFirstOrThrow();
      runner = { id, proc: startRunner(env) };
      await until('the runner polling', async () => runner.proc!.output().includes('runner started'), 90_000);
    }, 180_000);

    afterAll(async () => {
      await stopRunner(runner?.proc);
      await stopHttp?.();
      await srv?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a task node on the runner gets the workflow environment; its outputs fill the next node\'s survey', async () => {
      const { wf, run } = await startFlow({
        name: 'Remote build',
        nodes: [
          { id: 1, kind: 'task', name: 'build', template_id: tpl.build },
          { id: 2, kind: 'task', name: 'deploy', template_id: tpl.deploy, task_params: { environment: { image_tag: 'from-node' } } },
        ],
        edges: [{ source_node_id: 1, destination_node_id: 2 }],
      });
      const done = await waitRun(wf, run);
      const build = nodeState(done, 'build');
      const buildLog = (await taskLog(srv.s.deps.db, build.task.id)).join('\n');
      expect(done.run.status, `${buildLog}\n${runner.proc!.output()}`).toBe('success');
      const row = await srv.s.deps.db.selectFrom('task').select('runner_id').where('id', '=', build.task.id).executeTakeFirstOrThrow();
      expect(row.runner_id).toBe(runner.id);
      expect(buildLog).toContain(`workflow=${wf} run=${run} url=${url.replace(/\/+$/, '')}/project/${fx.project.id}/workflows/${wf}/runs/${run}`);
      expect(build.state).toMatchObject({ status: 'success', outputs: { image_tag: '7.1.0', replicas: 4 } });
      const outputs = await api('GET', `/tasks/${build.task.id}/outputs`);
      expect(outputs.body).toMatchObject({ outputs: { image_tag: '7.1.0', replicas: 4 }, not_captured: [] });
      const deployLog = await taskLog(srv.s.deps.db, nodeState(done, 'deploy').task.id);
      expect(deployLog.filter((l) => l.startsWith('Input '))).toEqual([
        `Input "image_tag" <- output "image_tag" of node ${build.node.id} (task #${build.task.id})`,
        `Input "replicas" <- output "replicas" of node ${build.node.id} (task #${build.task.id})`,
      ]);
      const args = deployLog.find((l) => l.startsWith('deploy args:'))!;
      expect(args).toContain('image_tag=7.1.0');
      expect(args).toContain('replicas=4');
    }, 120_000);

    it('terraform outputs are captured on the runner: the sensitive one is listed as not captured, never logged', async () => {
      const { wf, run } = await startFlow({
        name: 'Remote terraform',
        nodes: [{ id: 1, kind: 'task', name: 'infra', template_id: tpl.infra, task_params: {} }, { id: 2, kind: 'task', name: 'deploy', template_id: tpl.deploy, task_params: { environment: { image_tag: 'x' } } }],
        edges: [{ source_node_id: 1, destination_node_id: 2, input_mode: 'explicit', input_mappings: [{ variable: 'image_tag', output: 'vpc_id' }] }],
      });
      const seen = await until('the infra task to wait or end', async () => {
        const d = await details(wf, run);
        const task = nodeState(d, 'infra').task;
        return task?.status === 'waiting_confirmation' || ['success', 'failed'].includes(d.run.status) ? task : null;
      }, 90_000);
      if (seen.status === 'waiting_confirmation') await api('POST', `/tasks/${seen.id}/confirm`);
      const done = await waitRun(wf, run);
      const log = (await taskLog(srv.s.deps.db, seen.id)).join('\n');
      expect(done.run.status, log).toBe('success');
      expect(nodeState(done, 'infra').state.outputs).toEqual({ vpc_id: 'vpc-0a1', 'subnet-ids': ['s-1'] });
      expect(log).toContain('Output "db_password" not captured: sensitive');
      expect(log).not.toContain('tf-secret-9');
      expect((await api('GET', `/tasks/${seen.id}/outputs`)).body.not_captured).toEqual([{ name: 'db_password', reason: 'sensitive' }]);
      expect((await taskLog(srv.s.deps.db, nodeState(done, 'deploy').task.id)).join('\n')).toContain('image_tag=vpc-0a1');
    }, 120_000);

    it('a bad outputs file on the runner fails the task with the reason in its log', async () => {
      const { wf, run } = await startFlow({ name: 'Remote bad outputs', nodes: [{ id: 1, kind: 'task', name: 'bad', template_id: tpl.bad }], edges: [] });
      const done = await waitRun(wf, run);
      expect(done.run.status).toBe('failed');
      const bad = nodeState(done, 'bad');
      expect(bad.task.status).toBe('error');
      const row = await srv.s.deps.db.selectFrom('task').select('runner_id').where('id', '=', bad.task.id).executeTakeFirstOrThrow();
      expect(row.runner_id).toBe(runner.id);
      expect((await taskLog(srv.s.deps.db, bad.task.id)).join('\n')).toContain('Outputs rejected: the outputs file must hold a JSON object');
      const outputs = await srv.s.deps.db.selectFrom('task_output_value').select('task_id').where('task_id', '=', bad.task.id).execute();
      expect(outputs).toEqual([]);
    }, 120_000);

    it('the server judges the outputs a runner reports: outputs breaking the rules fail the task', async () => {
      const registered = await srv.s.api.request('/api/internal/runners', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registration_token: REGISTRATION, name: 'rogue', tags: ['rogue'] }),
      });
      const { token } = (await registered.json()) as { token: string };
      const { wf, run } = await startFlow({ name: 'Rogue outputs', nodes: [{ id: 1, kind: 'task', name: 'rogue', template_id: tpl.rogue }], edges: [] });
      const taskId = await until('the task handed to the rogue runner', async () => {
        const state = await (await srv.s.api.request('/api/internal/runners?wait=0', { headers: { 'x-runner-token': token } })).json() as { new_jobs: { task_id: number }[] };
        return state.new_jobs[0]?.task_id;
      }, 30_000);
      const report = (job: Record<string, unknown>) => srv.s.api.request('/api/internal/runners', {
        method: 'PUT', headers: { 'x-runner-token': token, 'content-type': 'application/json' }, body: JSON.stringify({ jobs: [{ id: taskId, ...job }] }),
      });
      expect((await report({ status: 'running' })).status).toBe(204);
      const tooMany = JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`o${i}`, i])));
      expect((await report({ status: 'success', outputs: tooMany, not_captured: '[]' })).status).toBe(204);
      const done = await waitRun(wf, run);
      expect(done.run.status).toBe('failed');
      expect(nodeState(done, 'rogue').task.status).toBe('error');
      expect((await taskLog(srv.s.deps.db, taskId)).join('\n')).toContain('Outputs rejected: the outputs file has 101 values; at most 100 are allowed');
      // without its token nothing is accepted
      const anonymous = await srv.s.api.request('/api/internal/runners', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jobs: [] }) });
      expect(anonymous.status).toBe(401);
    }, 120_000);
  });
}
