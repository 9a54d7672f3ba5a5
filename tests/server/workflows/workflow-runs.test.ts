import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, type EngineServer } from '../../support/engine.ts';
import { insertMember, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';

/** Scripts a bash template runs (a local-path repository, used in place). */
function writeScripts(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'build.sh'), [
    'echo "workflow=$SEMAPHORE_WORKFLOW_ID run=$SEMAPHORE_WORKFLOW_RUN_ID url=$SEMAPHORE_WORKFLOW_URL"',
    `printf '%s' '{"image_tag": "1.4.2", "replicas": 3, "token": "leak", "region": "{{ 6 * 7 }}", "bad-name": 1}' > "$SEMAPHORE_OUTPUTS_FILE"`,
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'deploy.sh'), 'echo "deploy args: $*"\n');
  writeFileSync(join(dir, 'fail.sh'), 'echo failing\nexit 3\n');
  writeFileSync(join(dir, 'cleanup.sh'), 'echo cleanup\n');
  writeFileSync(join(dir, 'slow.sh'), 'echo slow\nsleep 60\n');
  writeFileSync(join(dir, 'bad-outputs.sh'), `printf '[1, 2]' > "$SEMAPHORE_OUTPUTS_FILE"\n`);
  writeFileSync(join(dir, 'stats.yml'), [
    '- hosts: localhost',
    '  gather_facts: false',
    '  tasks:',
    '    - ansible.builtin.set_stats:',
    '        data:',
    '          image_tag: "2.0.{{ 1 + 1 }}"',
    '          region: !unsafe "{{ lookup(\'pipe\', \'id\') }}"',
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'show.yml'), [
    '- hosts: localhost',
    '  gather_facts: false',
    '  tasks:',
    '    - ansible.builtin.debug:',
    '        msg: "tag={{ image_tag }} region={{ region }}"',
    '',
  ].join('\n'));
  return dir;
}

const SURVEY = JSON.stringify([
  { name: 'image_tag', title: 'Image tag', type: '', required: true },
  { name: 'replicas', title: 'Replicas', type: 'int' },
  { name: 'region', title: 'Region', type: '' },
  { name: 'token', title: 'Token', type: 'secret' },
]);

const until = async <T>(what: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: T = await what();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met; last: ${JSON.stringify(last).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
    last = await what();
  }
  return last;
};

for (const dialect of DIALECTS) {
  describe(`workflow runs with real tasks (${dialect})`, () => {
    let e: EngineServer;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let approver: Record<string, string>;
    const tpl: Record<string, number> = {};
    const api = (method: string, path: string, body?: unknown, auth = e.admin) => e.s.call(method, `/api/project/${fx.project.id}${path}`, body, auth);
    const details = async (wf: number, run: number) => (await api('GET', `/workflows/${wf}/runs/${run}`)).body;
    const nodeState = (d: any, id: number) => d.nodes.find((n: any) => n.node.id === id);
    const waitRun = (wf: number, run: number, statuses: string[]) => until(() => details(wf, run), (d) => statuses.includes(d.run.status));

    const create = async (body: Record<string, unknown>) => {
      const res = await api('POST', '/workflows', body);
      expect(res.status, res.text).toBe(201);
      return res.body as { id: number; nodes: { id: number; name: string }[] };
    };
    const nodeId = (wf: { nodes: { id: number; name: string }[] }, name: string) => wf.nodes.find((n) => n.name === name)!.id;
    const start = async (wf: number, auth = e.admin) => {
      const res = await api('POST', `/workflows/${wf}/run`, {}, auth);
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };

    beforeAll(async () => {
      e = await startEngineServer(dialect, { SEMAPHORE_WEB_ROOT: 'https://sb.example' });
      fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: writeScripts(join(e.s.tmp, 'scripts')), playbook: 'build.sh', templateName: 'Build' });
      tpl.build = fx.template.id;
      const more = { repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id };
      tpl.deploy = (await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Deploy', playbook: 'deploy.sh', survey_vars: SURVEY, ...more })).id;
      tpl.fail = (await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Fail', playbook: 'fail.sh', ...more })).id;
      tpl.cleanup = (await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Cleanup', playbook: 'cleanup.sh', ...more })).id;
      tpl.slow = (await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Slow', playbook: 'slow.sh', ...more })).id;
      tpl.badOutputs = (await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Bad outputs', playbook: 'bad-outputs.sh', ...more })).id;
      tpl.stats = (await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Stats', app: 'ansible', playbook: 'stats.yml', ...more })).id;
      tpl.show = (await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Show', app: 'ansible', playbook: 'show.yml', survey_vars: SURVEY, ...more })).id;
      await insertMember(e.s.deps.db, fx.project.id, 'approver', 'task_runner');
      approver = await e.s.login('approver', 'member-password-1');
    }, 120_000);
    afterAll(async () => {
      await e?.close();
    });

    const release = (approval: Record<string, unknown> = {}) => ({
      name: `Release ${Math.random().toString(36).slice(2, 8)}`,
      nodes: [
        { id: 1, kind: 'task', name: 'build', template_id: tpl.build },
        { id: 2, kind: 'approval', name: 'approve', approval_message: 'Ship it?', ...approval },
        { id: 3, kind: 'task', name: 'deploy', template_id: tpl.deploy, task_params: { environment: { image_tag: 'from-node', region: 'eu' } } },
        { id: 4, kind: 'task', name: 'cleanup', template_id: tpl.cleanup },
        { id: 5, kind: 'note', name: 'readme', note: 'Deploys the image built by build' },
      ],
      edges: [
        { source_node_id: 1, destination_node_id: 2 },
        { source_node_id: 2, destination_node_id: 3 },
        { source_node_id: 1, destination_node_id: 4, condition: 'on_failure' },
      ],
    });

    it('build → approval → deploy: outputs fill the survey values, the approval waits, the failure branch is skipped', async () => {
      const wf = await create(release());
      const run = await start(wf.id);
      const waiting = await waitRun(wf.id, run, ['approval']);
      const build = nodeState(waiting, nodeId(wf, 'build'));
      expect(build.state).toMatchObject({ status: 'success', outputs: { image_tag: '1.4.2', replicas: 3 } });
      const buildLog = (await taskLog(e.s.deps.db, build.task.id)).join('\n');
      expect(buildLog).toContain(`workflow=${wf.id} run=${run} url=https://sb.example/project/${fx.project.id}/workflows/${wf.id}/runs/${run}`);
      expect(nodeState(waiting, nodeId(wf, 'approve')).approval).toMatchObject({ status: 'pending' });

      const decided = await api('POST', `/workflows/${wf.id}/runs/${run}/approvals/${nodeId(wf, 'approve')}`, { status: 'approved', comment: 'go', extra: 1 }, approver);
      expect(decided.status, decided.text).toBe(200);
      expect(decided.body).toMatchObject({ status: 'approved', comment: 'go' });
      const done = await waitRun(wf.id, run, ['success', 'failed']);
      expect(done.run.status).toBe('success');
      const deploy = nodeState(done, nodeId(wf, 'deploy'));
      const log = await taskLog(e.s.deps.db, deploy.task.id);
      const inputLines = log.filter((l) => l.startsWith('Input '));
      expect(inputLines).toEqual([
        `Input "image_tag" <- output "image_tag" of node ${nodeId(wf, 'approve')}`,
        `Input "replicas" <- output "replicas" of node ${nodeId(wf, 'approve')}`,
        `Input "token" not filled from output "token" of node ${nodeId(wf, 'approve')}: a secret variable is never filled by a connection`,
        `Input "region" <- output "region" of node ${nodeId(wf, 'approve')}`,
      ]);
      const args = log.find((l) => l.startsWith('deploy args:'))!;
      expect(args).toContain('image_tag=1.4.2');
      expect(args).toContain('replicas=3');
      expect(args).not.toContain('token=leak');
      expect(nodeState(done, nodeId(wf, 'cleanup')).state.status).toBe('pending');
      expect(done.history.map((h: any) => h.kind)).toEqual(expect.arrayContaining(['started', 'approval_requested', 'approved', 'finished']));
      expect(done.history.find((h: any) => h.kind === 'approved')).toMatchObject({ username: 'approver' });
      const artifacts = await api('GET', `/workflows/${wf.id}/runs/${run}/artifacts`);
      expect(artifacts.body).toMatchObject({ image_tag: '1.4.2' });
      const outputs = await api('GET', `/tasks/${build.task.id}/outputs`);
      expect(outputs.body.outputs).toMatchObject({ image_tag: '1.4.2', 'bad-name': 1 });
    }, 120_000);

    it('four eyes: the user who started the run may not approve it; someone else may', async () => {
      const wf = await create(release({ approval_four_eyes: true }));
      const run = await start(wf.id, approver);
      await waitRun(wf.id, run, ['approval']);
      const refused = await api('POST', `/workflows/${wf.id}/runs/${run}/approvals/${nodeId(wf, 'approve')}`, { status: 'approved' }, approver);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatch(/four eyes/);
      const ok = await api('POST', `/workflows/${wf.id}/runs/${run}/approvals/${nodeId(wf, 'approve')}`, { status: 'rejected', comment: 'not today' });
      expect(ok.status, ok.text).toBe(200);
      const done = await waitRun(wf.id, run, ['success', 'failed']);
      expect(done.run.status).toBe('failed');
      expect(nodeState(done, nodeId(wf, 'deploy')).state.status).toBe('pending');
    }, 120_000);

    it('an approval timeout fails the run', async () => {
      const wf = await create(release({ approval_timeout: 1 }));
      const run = await start(wf.id);
      const done = await waitRun(wf.id, run, ['success', 'failed']);
      expect(done.run.status).toBe('failed');
      expect(nodeState(done, nodeId(wf, 'approve')).approval).toMatchObject({ status: 'rejected', comment: 'timed out' });
    }, 120_000);

    it('a failing task takes its on_failure branch', async () => {
      const body = release();
      body.nodes[0] = { id: 1, kind: 'task', name: 'build', template_id: tpl.fail };
      const wf = await create(body);
      const run = await start(wf.id);
      const done = await waitRun(wf.id, run, ['success', 'failed']);
      expect(nodeState(done, nodeId(wf, 'build')).state.status).toBe('failed');
      expect(nodeState(done, nodeId(wf, 'cleanup')).state.status).toBe('success');
      expect(nodeState(done, nodeId(wf, 'approve')).state.status).toBe('pending');
      // the failure was taken by a connection: the run itself succeeds
      expect(done.run.status).toBe('success');
    }, 120_000);

    it('a delay waits, then the next node starts; a bad outputs file fails the task with the reason in its log', async () => {
      const wf = await create({
        name: 'Delay and bad outputs',
        nodes: [
          { id: 1, kind: 'delay', name: 'wait', delay_seconds: 1 },
          { id: 2, kind: 'task', name: 'bad', template_id: tpl.badOutputs },
        ],
        edges: [{ source_node_id: 1, destination_node_id: 2, condition: 'always' }],
      });
      const began = Date.now();
      const run = await start(wf.id);
      const waiting = await details(wf.id, run);
      expect(nodeState(waiting, nodeId(wf, 'wait')).state.status).toBe('delay');
      expect(waiting.run.status).toBe('running');
      const done = await waitRun(wf.id, run, ['success', 'failed']);
      expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
      expect(done.run.status).toBe('failed');
      const bad = nodeState(done, nodeId(wf, 'bad'));
      expect(bad.task.status).toBe('error');
      expect((await taskLog(e.s.deps.db, bad.task.id)).join('\n')).toContain('Outputs rejected: the outputs file must hold a JSON object');
    }, 120_000);

    it('stop ends a running task, a pending approval and a delay', async () => {
      const wf = await create({
        name: 'Stoppable',
        nodes: [
          { id: 1, kind: 'task', name: 'slow', template_id: tpl.slow },
          { id: 2, kind: 'approval', name: 'approve' },
          { id: 3, kind: 'delay', name: 'wait', delay_seconds: 3600 },
        ],
        edges: [{ source_node_id: 1, destination_node_id: 2, condition: 'always' }, { source_node_id: 2, destination_node_id: 3, condition: 'always' }],
      });
      // running task
      const first = await start(wf.id);
      const running = await until(() => details(wf.id, first), (d) => nodeState(d, nodeId(wf, 'slow')).task?.status === 'running');
      expect((await api('POST', `/workflows/${wf.id}/runs/${first}/stop`)).status).toBe(204);
      const stopped = await waitRun(wf.id, first, ['stopped']);
      expect(nodeState(stopped, nodeId(wf, 'slow')).state.status).toBe('stopped');
      await until(() => details(wf.id, first), (d) => nodeState(d, nodeId(wf, 'slow')).task.status === 'stopped');
      expect(nodeState(await details(wf.id, first), nodeId(wf, 'approve')).state.status).toBe('pending');
      expect(running.run.status).toBe('running');
      expect((await api('POST', `/workflows/${wf.id}/runs/${first}/stop`)).status).toBe(400);

      // pending approval, then a delay
      const second = await start(wf.id);
      await until(() => details(wf.id, second), (d) => nodeState(d, nodeId(wf, 'slow')).task?.status === 'running');
      await api('POST', `/tasks/${nodeState(await details(wf.id, second), nodeId(wf, 'slow')).task.id}/stop`, { force: true });
      await waitRun(wf.id, second, ['approval']);
      expect((await api('POST', `/workflows/${wf.id}/runs/${second}/stop`)).status).toBe(204);
      const noApproval = await waitRun(wf.id, second, ['stopped']);
      expect(nodeState(noApproval, nodeId(wf, 'approve')).approval).toMatchObject({ status: 'rejected', comment: 'run stopped' });

      const third = await start(wf.id);
      await until(() => details(wf.id, third), (d) => nodeState(d, nodeId(wf, 'slow')).task?.status === 'running');
      await api('POST', `/tasks/${nodeState(await details(wf.id, third), nodeId(wf, 'slow')).task.id}/stop`, { force: true });
      await waitRun(wf.id, third, ['approval']);
      await api('POST', `/workflows/${wf.id}/runs/${third}/approvals/${nodeId(wf, 'approve')}`, { status: 'approved' });
      await until(() => details(wf.id, third), (d) => nodeState(d, nodeId(wf, 'wait')).state.status === 'delay');
      expect((await api('POST', `/workflows/${wf.id}/runs/${third}/stop`)).status).toBe(204);
      const noDelay = await waitRun(wf.id, third, ['stopped']);
      expect(nodeState(noDelay, nodeId(wf, 'wait')).state.status).toBe('stopped');
    }, 180_000);

    it('terraform outputs are captured after apply: sensitive ones are listed as not captured and never logged', async () => {
      const previousPath = process.env.PATH;
      process.env.PATH = `${join(import.meta.dirname, '../../fakes')}:${previousPath}`;
      try {
        const tf = await insertTemplate(e.s.deps.db, fx.project.id, {
          name: `Infra ${Math.random()}`, app: 'terraform', playbook: '', repository_id: fx.repository.id, task_params: JSON.stringify({ allow_auto_approve: true }),
        });
        const wf = await create({
          name: 'Terraform outputs',
          nodes: [{ id: 1, kind: 'task', name: 'infra', template_id: tf.id }, { id: 2, kind: 'task', name: 'deploy', template_id: tpl.deploy, task_params: { environment: { image_tag: 'x' } } }],
          edges: [{ source_node_id: 1, destination_node_id: 2, input_mode: 'explicit', input_mappings: [{ variable: 'region', output: 'vpc_id' }] }],
        });
        await e.s.deps.db.updateTable('workflow_node').set({ task_params: JSON.stringify({}) }).where('id', '=', nodeId(wf, 'infra')).execute();
        // auto-approve, so apply runs without a confirmation
        await e.s.deps.db.updateTable('template').set({ task_params: JSON.stringify({ allow_auto_approve: true }) }).where('id', '=', tf.id).execute();
        const run = await start(wf.id);
        const infra = await until(() => details(wf.id, run), (d) => nodeState(d, nodeId(wf, 'infra')).task?.status === 'waiting_confirmation' || ['success', 'failed'].includes(d.run.status));
        const infraTask = nodeState(infra, nodeId(wf, 'infra')).task;
        if (infraTask.status === 'waiting_confirmation') await api('POST', `/tasks/${infraTask.id}/confirm`);
        const done = await waitRun(wf.id, run, ['success', 'failed']);
        const log = (await taskLog(e.s.deps.db, infraTask.id)).join('\n');
        expect(done.run.status, log).toBe('success');
        expect(nodeState(done, nodeId(wf, 'infra')).state.outputs).toEqual({ vpc_id: 'vpc-0a1', 'subnet-ids': ['s-1'] });
        expect(log).toContain('Output "db_password" not captured: sensitive');
        expect(log).not.toContain('tf-secret-9');
        const outputs = await api('GET', `/tasks/${infraTask.id}/outputs`);
        expect(outputs.body.not_captured).toEqual([{ name: 'db_password', reason: 'sensitive' }]);
        const deployLog = (await taskLog(e.s.deps.db, nodeState(done, nodeId(wf, 'deploy')).task.id)).join('\n');
        expect(deployLog).toContain('region=vpc-0a1');
      } finally {
        process.env.PATH = previousPath;
      }
    }, 120_000);

    it('ansible set_stats become outputs; the next ansible task gets them as data, never as templates', async () => {
      const wf = await create({
        name: 'Ansible outputs',
        nodes: [
          { id: 1, kind: 'task', name: 'stats', template_id: tpl.stats },
          { id: 2, kind: 'task', name: 'show', template_id: tpl.show },
        ],
        edges: [{ source_node_id: 1, destination_node_id: 2, input_mode: 'explicit', input_mappings: [{ variable: 'image_tag', output: 'image_tag' }, { variable: 'region', output: 'region' }] }],
      });
      const run = await start(wf.id);
      const done = await waitRun(wf.id, run, ['success', 'failed']);
      const stats = nodeState(done, nodeId(wf, 'stats'));
      expect(stats.state.outputs, (await taskLog(e.s.deps.db, stats.task.id)).join('\n')).toMatchObject({ image_tag: '2.0.2', region: "{{ lookup('pipe', 'id') }}" });
      const show = nodeState(done, nodeId(wf, 'show'));
      const log = (await taskLog(e.s.deps.db, show.task.id)).join('\n');
      expect(done.run.status, log).toBe('success');
      expect(log).toContain("tag=2.0.2 region={{ lookup('pipe', 'id') }}");
      expect(log).not.toMatch(/uid=\d+/);
    }, 180_000);
  });
}
