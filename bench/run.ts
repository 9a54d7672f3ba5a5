/**
 * `npm run bench`: task engine figures on a fresh database (SQLite by default; BENCH_DIALECT=
 * postgres for PostgreSQL at 127.0.0.1:5432).
 *  1. end-to-end throughput of a task printing 1,000,000 lines (process → database, task
 *     success) and the peak RSS of this process meanwhile, with a variable-group secret in the
 *     task, so every line goes through secret masking;
 *  2. a bare batched insert of the same lines into the same database, for comparison;
 *  3. dispatch latency p50/p99, POST /tasks → `running`, over 200 tasks run one after another.
 * Targets: p50 < 100 ms, pipeline ≥ 50 % of the bare insert, peak RSS < 300 MB.
 * Then the console figures of bench/console.ts (page JavaScript weight, history SSR time) and the
 * load figures of bench/load.ts (idle and peak RSS, history throughput under 50 clients) and the
 * browser figures of bench/browser.ts (task log jump to the end, heap, long tasks, bytes on the wire)
 * and the scale-out figures of bench/scale-out.ts (two servers on one PostgreSQL database: task
 * starts per minute, live lines across servers),
 * and the remote runner figures of bench/runners.ts (dispatch latency to an idle runner, starts per minute),
 * then the task log search of bench/output-search.ts,
 * then the audit trail figures of bench/audit.ts (write cost on/off, a 1,000,000-row export's memory),
 * then the workflow successor latency of bench/workflows.ts,
 * then the console's pages with 10,000 templates and 1,000,000 tasks of bench/scale.ts (SQLite and PostgreSQL),
 * then the container start per task of bench/containers.ts (Podman, beside a host task).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { bootBenchApi } from './bench-api.ts';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEngine } from '../src/server/engine/engine.ts';
import { insertOutputLines, type OutputLine } from '../src/server/engine/output/insert-output.ts';
import { isFinished } from '../src/server/domain/tasks/task-status.ts';
import type { DialectName } from '../tests/support/dialects.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../tests/support/fixtures.ts';
import { runConsoleBench } from './console.ts';
import { runLoadBench } from './load.ts';
import { runBrowserBench } from './browser.ts';
import { runScaleOutBench } from './scale-out.ts';
import { runRunnersBench } from './runners.ts';
import { runOutputSearchBench } from './output-search.ts';
import { runAuditBench } from './audit.ts';
import { runWorkflowBench } from './workflows.ts';
import { runScaleBench } from './scale.ts';
import { runContainerBench } from './containers.ts';
import { runParseCostBench } from './parse-cost.ts';
import { runHostsBench } from './hosts.ts';

const DISPATCH_TASKS = Number(process.env.BENCH_TASKS ?? 200);
const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;

const { tmp, database, deps, api } = await bootBenchApi('bench', dialect);
const engine = await startEngine(deps);

const scripts = join(tmp, 'scripts');
mkdirSync(scripts);
writeFileSync(join(scripts, 'quick.sh'), 'exit 0\n');
writeFileSync(join(scripts, 'million.sh'), `seq -f 'benchmark output line %g of a long task' 1 ${LINES}\n`);
const fx = await insertProjectWithTemplate(deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'quick.sh' });
const million = await insertTemplate(deps.db, fx.project.id, { name: 'Million', playbook: 'million.sh', repository_id: fx.repository.id, environment_id: fx.environment.id });
// masking is on for every task given a secret; this one is never printed, so each line is searched in full
await insertEnvironmentSecret(deps.db, deps.secrets, fx.environment.id, fx.project.id, 'env', 'BENCH_TOKEN', 'bench-secret-token-value');

const login = await api.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: 'bench-password-1' }) });
const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

/** POSTs a task; resolves with its id plus when it reached `running` and when it finished. */
async function runTask(templateId: number): Promise<{ id: number; posted: number; running: number; finished: number; status: string }> {
  let id = -1;
  const marks = { running: 0, finished: 0, status: '' };
  const early: { task_id: number; status: string; at: number }[] = [];
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => { resolveDone = r; });
  const note = (taskId: number, status: string, at: number) => {
    if (taskId !== id) return;
    if (status === 'running' && !marks.running) marks.running = at;
    if (isFinished(status)) {
      marks.finished = at;
      marks.status = status;
      resolveDone();
    }
  };
  const unsubscribe = deps.bus.subscribe((m) => {
    if (m.type !== 'update') return;
    if (id === -1) early.push({ task_id: m.task_id, status: m.status, at: performance.now() });
    else note(m.task_id, m.status, performance.now());
  });
  const posted = performance.now();
  const res = await api.request(`/api/project/${fx.project.id}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ template_id: templateId }) });
  id = ((await res.json()) as { id: number }).id;
  for (const m of early) note(m.task_id, m.status, m.at);
  await done;
  unsubscribe();
  return { id, posted, ...marks };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

await runTask(fx.template.id); // warm-up

// 1. one million lines end to end, with peak RSS sampled meanwhile. It runs first, on a fresh
// process, so the RSS figure is about the log pipeline and not the heap history of earlier work.
// 2. a bare batched insert of the same lines into the same database (another task row).
// Each is run ROUNDS times, alternating, with the rows deleted in between so every run writes
// into a table of the same size; the best run of each counts (the machine is shared and noisy).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const rssBefore = process.memoryUsage.rss();
let peakRss = rssBefore;
let pipelineSeconds = Infinity;
let bareSeconds = Infinity;
let big = { id: 0, status: '' };
let stored = 0;
const bareTask = await deps.db.insertInto('task').values({
  project_id: fx.project.id, template_id: million.id, status: 'success', playbook: '', environment: '{}', message: 'bare insert',
  commit_message: '', params: '{}', created: new Date().toISOString(),
}).returning('id').executeTakeFirstOrThrow();
for (let round = 0; round < ROUNDS; round++) {
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage.rss()); }, 20);
  const run = await runTask(million.id);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  pipelineSeconds = Math.min(pipelineSeconds, (run.finished - run.posted) / 1000);
  big = run;
  stored = Number((await deps.db.selectFrom('task_output').select((e) => e.fn.countAll<number>().as('n')).where('task_id', '=', run.id).executeTakeFirstOrThrow()).n);
  await deps.db.deleteFrom('task_output').where('task_id', '=', run.id).execute();

  const time = new Date().toISOString();
  const bareStart = performance.now();
  for (let i = 0; i < LINES; i += 2000) {
    // Batches are made as they go, as the pipeline gets them, rather than one million-line array.
    const batch: OutputLine[] = Array.from({ length: 2000 }, (_, k) => ({ time, output: `benchmark output line ${i + k + 1} of a long task` }));
    await insertOutputLines(deps.db, bareTask.id, batch);
  }
  bareSeconds = Math.min(bareSeconds, (performance.now() - bareStart) / 1000);
  await deps.db.deleteFrom('task_output').where('task_id', '=', bareTask.id).execute();
}

// 3. dispatch latency
const latencies: number[] = [];
for (let i = 0; i < DISPATCH_TASKS; i++) {
  const r = await runTask(fx.template.id);
  latencies.push(r.running - r.posted);
}
latencies.sort((a, b) => a - b);

const pipelineRate = LINES / pipelineSeconds;
const bareRate = LINES / bareSeconds;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
console.log(`signalbox task engine benchmark (${dialect})`);
console.log(`dispatch latency, POST → running, ${DISPATCH_TASKS} tasks: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (target p50 < 100 ms)`);
console.log(`${LINES.toLocaleString('en')}-line task end to end (secret masking on): ${pipelineSeconds.toFixed(2)} s, ${Math.round(pipelineRate).toLocaleString('en')} lines/s (best of ${ROUNDS}; status ${big.status}, ${stored.toLocaleString('en')} rows stored)`);
console.log(`bare batched insert of the same lines: ${bareSeconds.toFixed(2)} s, ${Math.round(bareRate).toLocaleString('en')} lines/s (best of ${ROUNDS})`);
console.log(`pipeline / bare insert: ${((pipelineRate / bareRate) * 100).toFixed(0)} % (target ≥ 50 %)`);
console.log(`peak RSS during that task: ${mb(peakRss)} (target < 300 MB; ${mb(rssBefore)} before it started)`);

await engine.stop();
await deps.db.destroy();
await database.drop();
rmSync(tmp, { recursive: true, force: true });

console.log('');
await runConsoleBench();
console.log('');
await runLoadBench();

console.log('');
await runBrowserBench();

console.log('');
await runScaleOutBench();

console.log('');
await runRunnersBench();

console.log('');
await runOutputSearchBench();
console.log('');
await runAuditBench();

console.log('');
await runWorkflowBench();

console.log('');
await runScaleBench();

console.log('');
await runContainerBench();

console.log('');
await runParseCostBench();

console.log('');
await runHostsBench();
