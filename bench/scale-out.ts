/**
 * Scale-out figures (`npm run bench`, or alone: `bash scripts/with-node.sh node bench/scale-out.ts`):
 * two real `signalbox server` processes on one fresh PostgreSQL database (127.0.0.1:5432).
 *  1. task starts per minute: BENCH_SCALE_TASKS (300) quick tasks posted alternately to both
 *     servers by BENCH_SCALE_CLIENTS (8) concurrent clients; from the first POST until the last
 *     task has started (task.start), and until the last one ended. Target ≥ 600/min. On a
 *     shared machine that figure says more about the neighbours than about Signalbox, so the
 *     servers' own CPU time per task (from /proc, the server processes and, apart, the task
 *     processes they ran) is printed too, with the starts per minute one core per server would
 *     sustain at that cost.
 *  2. cross-server live lines: a websocket client on B and one on A; a task started on A prints
 *     a line every 100 ms; how much later each line reaches B than A (p50 / max). Target < 1 s.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isPostgresReachable } from '../tests/support/dialects.ts';
import { insertProjectWithTemplate, insertTemplate } from '../tests/support/fixtures.ts';
import { openTaskSocket, startServerCluster } from '../tests/support/server-cluster.ts';

const TASKS = Number(process.env.BENCH_SCALE_TASKS ?? 300);
const CLIENTS = Number(process.env.BENCH_SCALE_CLIENTS ?? 8);

/** CPU milliseconds of a process: [its own (user + system), its waited-for children's]. */
export function cpuMs(pid: number): [number, number] {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = 10; // USER_HZ = 100 on Linux
  return [(Number(fields[11]) + Number(fields[12])) * tick, (Number(fields[13]) + Number(fields[14])) * tick];
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function runScaleOutBench(): Promise<void> {
  if (!(await isPostgresReachable())) {
    console.log('scale-out benchmark: PostgreSQL at 127.0.0.1:5432 not reachable, skipped');
    return;
  }
  let quickId = 0;
  let tickerId = 0;
  let projectId = 0;
  const cluster = await startServerCluster(2, async (db, tmp) => {
    const scripts = join(tmp, 'scripts');
    mkdirSync(scripts);
    writeFileSync(join(scripts, 'quick.sh'), 'exit 0\n');
    writeFileSync(join(scripts, 'ticker.sh'), 'for i in $(seq 1 30); do echo "tick-$i"; sleep 0.1; done\n');
    const fx = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'quick.sh' });
    projectId = fx.project.id;
    await db.updateTable('template').set({ allow_parallel_tasks: 1 }).where('id', '=', fx.template.id).execute();
    quickId = fx.template.id;
    tickerId = (await insertTemplate(db, projectId, { name: 'Ticker', playbook: 'ticker.sh', repository_id: fx.repository.id })).id;
  });
  try {
    const [a, b] = cluster.nodes as [typeof cluster.nodes[0], typeof cluster.nodes[0]];
    // warm-up: one task through each server
    for (const node of cluster.nodes) await node.api('POST', `/api/project/${projectId}/tasks`, { template_id: quickId });
    await waitAllFinished(cluster.db, 2, 60_000);

    // 1. starts per minute
    const cpuBefore = cluster.nodes.map((n) => cpuMs(n.process.pid));
    const firstPost = Date.now();
    const t0 = performance.now();
    let next = 0;
    const ids: number[] = [];
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (next < TASKS) {
        const i = next++;
        const res = await (i % 2 ? b : a).api('POST', `/api/project/${projectId}/tasks`, { template_id: quickId });
        if (res.status !== 201) throw new Error(`POST /tasks answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { id: number }).id);
      }
    }));
    const postedSeconds = (performance.now() - t0) / 1000;
    await waitAllFinished(cluster.db, TASKS + 2, 600_000);
    const cpuAfter = cluster.nodes.map((n) => cpuMs(n.process.pid));
    const serverCpu = cpuAfter.reduce((sum, [own], i) => sum + own - cpuBefore[i]![0], 0) / TASKS;
    const taskCpu = cpuAfter.reduce((sum, [, children], i) => sum + children - cpuBefore[i]![1], 0) / TASKS;
    const rows = await cluster.db.selectFrom('task').select(['status', 'start', 'end']).where('id', 'in', ids).execute();
    const lastStart = Math.max(...rows.map((r) => Date.parse(r.start!)));
    const lastEnd = Math.max(...rows.map((r) => Date.parse(r.end!)));
    const ok = rows.filter((r) => r.status === 'success').length;
    const startsPerMin = (TASKS / ((lastStart - firstPost) / 1000)) * 60;
    const endsPerMin = (TASKS / ((lastEnd - firstPost) / 1000)) * 60;
    console.log(`scale-out benchmark: 2 servers on one PostgreSQL database, ${TASKS} quick tasks posted to both by ${CLIENTS} clients (posted in ${postedSeconds.toFixed(1)} s)`);
    console.log(`task starts per minute: ${Math.round(startsPerMin).toLocaleString('en')} (target ≥ 600); finished per minute: ${Math.round(endsPerMin).toLocaleString('en')}; ${ok}/${TASKS} success (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`);
    console.log(`server CPU per task (POST, claim, run, finish, relay): ${serverCpu.toFixed(0)} ms, plus ${taskCpu.toFixed(0)} ms in its processes (git, bash) → one free core per server ≈ ${Math.round(60_000 / (serverCpu + taskCpu)).toLocaleString('en')} starts/min each`);

    // 2. cross-server live lines
    const onA = await openTaskSocket(a);
    const onB = await openTaskSocket(b);
    const created = await a.api('POST', `/api/project/${projectId}/tasks`, { template_id: tickerId });
    const { id } = (await created.json()) as { id: number };
    const deadline = Date.now() + 60_000;
    while (!onB.messages.some(({ m }) => m.task_id === id && m.type === 'update' && m.status === 'success') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    onA.close();
    onB.close();
    const seenOnA = new Map(onA.messages.filter(({ m }) => m.task_id === id && m.type === 'log').map(({ at, m }) => [m.output, at]));
    const behind = onB.messages.filter(({ m }) => m.task_id === id && m.type === 'log' && seenOnA.has(m.output)).map(({ at, m }) => at - seenOnA.get(m.output)!).sort((x, y) => x - y);
    console.log(`live lines on B behind A (task run by either, started on A; ${behind.length} lines): p50 ${percentile(behind, 50)} ms, max ${behind.at(-1)} ms (target < 1 s)`);
  } finally {
    await cluster.close();
  }
}

export async function waitAllFinished(db: Awaited<ReturnType<typeof startServerCluster>>['db'], total: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.selectFrom('task').select((e) => e.fn.countAll<number>().as('n')).where('status', 'in', ['success', 'error', 'stopped']).executeTakeFirstOrThrow();
    if (Number(row.n) >= total) return;
    if (Date.now() > deadline) throw new Error(`only ${row.n} of ${total} tasks finished`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

if (import.meta.main) await runScaleOutBench();
