import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { isPostgresReachable } from '../../support/dialects.ts';
import { taskLog, waitForTask } from '../../support/engine.ts';
import { openTaskSocket, startServerCluster, type ClusterNode, type ServerCluster } from '../../support/server-cluster.ts';
import { insertStartingTask, registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../../support/runner-process.ts';

const REGISTRATION = 'cluster-registration-3f9a';
const FAIL_SEC = 6;

/**
 * Issue 16's done-when, all at once with real processes on loopback: two `signalbox server`
 * processes on one PostgreSQL database, runner "plain" talking to server A and runner "gpu"
 * (tagged) to server B. Remote runners are on for untagged tasks too.
 */
describe.runIf(await isPostgresReachable())('two servers on one PostgreSQL database and two runner processes', () => {
  let cluster: ServerCluster;
  let scripts: string;
  let projectId: number;
  const templates: Record<string, number> = {};
  const runners: Record<'plain' | 'gpu', { env: Record<string, string>; id: number; node: ClusterNode; proc?: RunnerChild }> = {} as never;

  const queue = async (node: ClusterNode, template: string) => {
    const res = await node.api('POST', `/api/project/${projectId}/tasks`, { template_id: templates[template] });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const logOf = (id: number) => taskLog(cluster.db, id);

  beforeAll(async () => {
    cluster = await startServerCluster(2, async (db, tmp) => {
      scripts = join(tmp, 'scripts');
      mkdirSync(scripts);
      const fx = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'untagged.sh' });
      projectId = fx.project.id;
      const script = (name: string, text: string, tag: string | null) => {
        writeFileSync(join(scripts, `${name}.sh`), text, { mode: 0o755 });
        return insertTemplate(db, projectId, {
          name, playbook: `${name}.sh`, repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id, runner_tag: tag, allow_parallel_tasks: 1,
        });
      };
      templates.untagged = (await script('untagged', 'echo untagged ran', null)).id;
      templates.tagged = (await script('tagged', 'echo tagged ran', 'gpu')).id;
      templates.talk = (await script('talk', 'for i in 1 2 3 4 5; do echo "talk-$i"; sleep 0.2; done', null)).id;
      templates.long = (await script('long', 'echo started-long; sleep 30', 'gpu')).id;
      templates.once = (await script('once', `echo run >> "${join(tmp, 'runs.txt')}"; echo started-once; sleep 60`, 'gpu')).id;
    }, {
      env: {
        SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SEMAPHORE_USE_REMOTE_RUNNER: 'true',
        SIGNALBOX_RUNNER_OFFLINE_SEC: '3', SIGNALBOX_RUNNER_FAIL_SEC: String(FAIL_SEC), SIGNALBOX_RUNNER_POLL_HOLD_MS: '2000',
      },
    });
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    await Promise.all((['plain', 'gpu'] as const).map(async (name) => {
      const node = name === 'plain' ? a : b;
      const env = runnerEnv(`http://127.0.0.1:${node.port}`, join(cluster.tmp, name), { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION });
      await registerRunner(env, ['--name', `runner-${name}`, ...(name === 'gpu' ? ['--tags', 'gpu'] : [])]);
      const { id } = await cluster.db.selectFrom('runner').select('id').where('name', '=', `runner-${name}`).executeTakeFirstOrThrow();
      runners[name] = { env, id, node, proc: startRunner(env) };
      await until(`runner ${name} polling`, async () => runners[name].proc!.output().includes('runner started'), 60_000);
    }));
  }, 180_000);

  afterAll(async () => {
    await stopRunner(runners.plain?.proc);
    await stopRunner(runners.gpu?.proc);
    await cluster?.close();
  }, 60_000);

  it('tasks with and without a tag, queued on either server, land on a fitting runner and succeed', async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    const ids = await Promise.all([queue(a, 'tagged'), queue(b, 'tagged'), queue(a, 'untagged'), queue(b, 'untagged')]);
    const done = await Promise.all(ids.map((id) => waitForTask(cluster.db, id)));
    const logs = await Promise.all(ids.map(async (id) => `#${id}: ${(await logOf(id)).join(' | ')}`));
    expect(done.map((t) => t.status), logs.join('\n')).toEqual(Array(4).fill('success'));
    expect(done.slice(0, 2).map((t) => t.runner_id)).toEqual([runners.gpu.id, runners.gpu.id]);
    for (const t of done.slice(2)) expect([runners.plain.id, runners.gpu.id]).toContain(t.runner_id);
    expect(await logOf(ids[0]!)).toContain('tagged ran');
    expect(await logOf(ids[2]!)).toContain('untagged ran');
  }, 30_000);

  it('a websocket client on one server sees the live lines of a task the other server dispatched', async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    const sockets = [await openTaskSocket(a), await openTaskSocket(b)];
    try {
      const id = await queue(a, 'talk');
      const done = await waitForTask(cluster.db, id);
      expect(done.status).toBe('success');
      // the server the task's runner polls dispatched it; watch from the other one
      const dispatcher = done.runner_id === runners.plain.id ? runners.plain.node : runners.gpu.node;
      const watcher = sockets[dispatcher === a ? 1 : 0]!;
      await until('the last line on the other server', async () => watcher.messages.some(({ m }) => m.task_id === id && m.type === 'update' && m.status === 'success'), 5_000);
      const lines = watcher.messages.filter(({ m }) => m.task_id === id && m.type === 'log').map(({ m }) => m.output);
      expect(lines.filter((l) => String(l).startsWith('talk-'))).toEqual(['talk-1', 'talk-2', 'talk-3', 'talk-4', 'talk-5']);
      // live: the first line arrived while the task was still running
      const first = watcher.messages.find(({ m }) => m.task_id === id && m.output === 'talk-1')!.at;
      const finished = watcher.messages.find(({ m }) => m.task_id === id && m.type === 'update' && m.status === 'success')!.at;
      expect(finished - first).toBeGreaterThan(500);
    } finally {
      for (const s of sockets) s.close();
    }
  }, 30_000);

  it('a runner restarted mid-task does not run the task again', async () => {
    const gpu = runners.gpu;
    const id = await queue(cluster.nodes[0]!, 'once');
    await until('the task running', async () => (await logOf(id)).includes('started-once'), 20_000);
    const old = gpu.proc!;
    gpu.proc = startRunner(gpu.env);
    await until('the new runner process', async () => gpu.proc!.output().includes('runner started'), 30_000);
    await stopRunner(old);
    const ended = await waitForTask(cluster.db, id, undefined, 20_000);
    const log = await logOf(id);
    expect(ended.status, log.join('\n')).toBe('error');
    expect(log).toContain('The runner restarted while the task was running; it is not run again');
    expect(readFileSync(join(cluster.tmp, 'runs.txt'), 'utf8')).toBe('run\n');
  }, 60_000);

  it('kill -9 of a runner mid-task: the task fails after the timeout with a log line, its starting task moves to the other runner', async () => {
    const gpu = runners.gpu;
    const id = await queue(cluster.nodes[1]!, 'long');
    await until('the task running on the gpu runner', async () => (await logOf(id)).includes('started-long'), 20_000);
    await stopRunner(gpu.proc);
    const starting = await insertStartingTask(cluster.db, projectId, templates.untagged!, gpu.id);
    const killedAt = Date.now();
    const failed = await waitForTask(cluster.db, id, undefined, 20_000);
    expect(failed.status).toBe('error');
    expect(Date.now() - killedAt).toBeGreaterThan((FAIL_SEC - 3) * 1000);
    expect(await logOf(id)).toContain(`Runner #${gpu.id} has not been in contact for ${FAIL_SEC} seconds; the task failed`);
    const moved = await waitForTask(cluster.db, starting, undefined, 20_000).catch(async (e) => {
      throw new Error(`${e}\nRUNNERS: ${JSON.stringify(await cluster.db.selectFrom('runner').select(['id', 'touched', 'active']).execute())} now ${new Date().toISOString()}\nPLAIN: ${runners.plain.proc!.output()}\nSERVER: ${runners.plain.node.process.output().slice(-3000)}`);
    });
    const movedLog = await logOf(starting);
    expect(movedLog).toContain(`Runner #${gpu.id} went offline before starting the task; the task goes back to the queue`);
    expect([moved.status, moved.runner_id]).toEqual(['success', runners.plain.id]);
    expect(movedLog).toContain('untagged ran');
  }, 40_000);
});
