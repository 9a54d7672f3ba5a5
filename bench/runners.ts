/**
 * Remote runner figures (issue 16): two real `signalbox server` processes on one fresh PostgreSQL
 * database and two real `signalbox runner start` processes on loopback, runner 1 polling server A,
 * runner 2 server B (both tagged "bench", 4 tasks each at most).
 *  1. dispatch latency to an idle remote runner: from the POST to A until the runner reported the
 *     task running (task.start), BENCH_RUNNER_TASKS tasks one after another (target p50 ≤ 100 ms;
 *     Semaphore's runner polls every 1 s);
 *  2. task starts per minute: BENCH_RUNNER_BURST quick tasks posted alternately to both servers
 *     (target ≥ 600/min), with the CPU milliseconds per task start of each process kind (servers,
 *     runners, the task processes the runners ran, the PostgreSQL backends of the bench database,
 *     the bench process itself), so the figure means something on a loaded machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { isPostgresReachable } from '../tests/support/dialects.ts';
import { insertProjectWithTemplate, insertTemplate } from '../tests/support/fixtures.ts';
import { startServerCluster, type ClusterNode } from '../tests/support/server-cluster.ts';
import { registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../tests/support/runner-process.ts';
import { cpuMs, percentile, waitAllFinished } from './scale-out.ts';
import { watchPostgresCpu } from './postgres-cpu.ts';

const TASKS = Number(process.env.BENCH_RUNNER_TASKS ?? 50);
const BURST = Number(process.env.BENCH_RUNNER_BURST ?? 200);
const REGISTRATION = 'bench-registration-token';

export async function runRunnersBench(): Promise<void> {
  if (!(await isPostgresReachable())) {
    console.log('remote runner benchmark: PostgreSQL at 127.0.0.1:5432 not reachable, skipped');
    return;
  }
  let projectId = 0;
  let templateId = 0;
  const cluster = await startServerCluster(2, async (db, tmp) => {
    const scripts = join(tmp, 'scripts');
    mkdirSync(scripts);
    writeFileSync(join(scripts, 'quick.sh'), 'exit 0\n');
    const fx = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'quick.sh' });
    projectId = fx.project.id;
    templateId = (await insertTemplate(db, projectId, { name: 'remote', playbook: 'quick.sh', repository_id: fx.repository.id, runner_tag: 'bench', allow_parallel_tasks: 1 })).id;
  }, { env: { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SEMAPHORE_MAX_PARALLEL_TASKS: '0', ...profiling() } });
  const runners: RunnerChild[] = [];
  try {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    for (const [i, node] of [a, b].entries()) {
      const env = runnerEnv(`http://127.0.0.1:${node.port}`, join(cluster.tmp, `runner-${i + 1}`), { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION });
      await registerRunner(env, ['--name', `bench-${i + 1}`, '--tags', 'bench', '--max-parallel-tasks', '4']);
      const runner = startRunner({ ...env, ...profiling() });
      runners.push(runner);
      await until('the runner polling', async () => runner.output().includes('runner started'), 120_000);
    }
    const post = async (node: ClusterNode) => {
      const res = await node.api('POST', `/api/project/${projectId}/tasks`, { template_id: templateId });
      if (res.status !== 201) throw new Error(`POST /tasks answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { id: number }).id;
    };
    // warm-up: a task through each server (the first fetch of the repository is not counted)
    for (const node of cluster.nodes) await post(node);
    let finished = 2;
    await waitAllFinished(cluster.db, finished, 120_000);

    // 1. dispatch latency, one task at a time
    const latencies: number[] = [];
    for (let i = 0; i < TASKS; i++) {
      const t0 = Date.now();
      const id = await post(a);
      await waitAllFinished(cluster.db, ++finished, 60_000);
      const row = await cluster.db.selectFrom('task').select('start').where('id', '=', id).executeTakeFirstOrThrow();
      latencies.push(Date.parse(row.start!) - t0);
    }
    latencies.sort((x, y) => x - y);
    console.log('signalbox remote runner benchmark: 2 servers on one PostgreSQL database, 2 runner processes on loopback');
    console.log(`dispatch latency to an idle runner, POST → running, ${TASKS} tasks: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (target p50 ≤ 100 ms; Semaphore polls every 1 s)`);

    // 2. a burst of quick tasks posted to both servers
    const pids = { servers: cluster.nodes.map((n) => n.process.pid), runners: runners.map((r) => r.child.pid!) };
    const cpu = () => ({ servers: pids.servers.map((p) => cpuMs(p)), runners: pids.runners.map((p) => cpuMs(p)) });
    const before = cpu();
    const pg = watchPostgresCpu(cluster.settings.name!);
    const client = process.cpuUsage();
    const firstPost = Date.now();
    const ids = await Promise.all(Array.from({ length: BURST }, (_, i) => post(i % 2 ? b : a)));
    await waitAllFinished(cluster.db, finished + BURST, 600_000);
    const after = cpu();
    const pgSpent = pg.stop();
    const clientUsage = process.cpuUsage(client);
    const spent = (kind: 'servers' | 'runners', which: 0 | 1) => after[kind].reduce((sum, v, i) => sum + v[which] - before[kind][i]![which], 0) / BURST;
    const rows = await cluster.db.selectFrom('task').select(['id', 'status', 'start', 'runner_id']).where('id', 'in', ids).execute();
    const lastStart = Math.max(...rows.filter((r) => r.start).map((r) => Date.parse(r.start!)));
    const ok = rows.filter((r) => r.status === 'success').length;
    for (const r of rows.filter((row) => row.status !== 'success').slice(0, 3)) {
      const lines = await cluster.db.selectFrom('task_output').select('output').where('task_id', '=', r.id).orderBy('id').execute();
      console.log(`task ${r.id} ended ${r.status}: ${lines.map((l) => l.output).join(' | ').slice(0, 400)}`);
    }
    const perRunner = [...new Set(rows.map((r) => r.runner_id))].map((id) => `#${id}: ${rows.filter((r) => r.runner_id === id).length}`).join(', ');
    console.log(`task starts with 2 servers + 2 runners, ${BURST} quick tasks posted at once: ${Math.round((BURST / ((lastStart - firstPost) / 1000)) * 60)} per minute (target ≥ 600/min); ${ok}/${BURST} success (${perRunner}); load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
    const [server, runner, task] = [spent('servers', 0), spent('runners', 0), spent('runners', 1)];
    const [postgres, background, bench] = [pgSpent.backends / BURST, pgSpent.background / BURST, (clientUsage.user + clientUsage.system) / 1000 / BURST];
    const total = server + runner + task + postgres + background + bench;
    console.log(`CPU per task start: servers ${server.toFixed(1)} ms, runners ${runner.toFixed(1)} ms, task processes (git, bash) ${task.toFixed(1)} ms, PostgreSQL backends of the bench database ${postgres.toFixed(1)} ms (+ ${background.toFixed(1)} ms in its shared background processes), bench client ${bench.toFixed(1)} ms`);
    console.log(`  all together ${total.toFixed(1)} ms → ${Math.round(60_000 / total).toLocaleString('en')} starts/min per free core, ${Math.round((60_000 * cpus().length) / total).toLocaleString('en')} on all ${cpus().length}`);
  } finally {
    for (const r of runners) r.child.kill('SIGTERM');
    await Promise.race([Promise.all(runners.map((r) => r.exited)), new Promise((r) => setTimeout(r, 10_000))]);
    for (const r of runners) await stopRunner(r);
    await cluster.close();
  }
}

/** BENCH_RUNNER_PROFILE=dir: the servers and runners write CPU profiles there when they stop. */
function profiling(): Record<string, string> {
  const dir = process.env.BENCH_RUNNER_PROFILE;
  return dir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` } : {};
}

if (import.meta.main) await runRunnersBench();
