/**
 * The queue's claim with 10,000 tasks queued behind locks (issue 48): 10,000 waiting tasks of
 * 50 templates that all need the lock `prod` (capacity 1), held by one running task. Measures
 * `claimNextTask` `BENCH_CLAIM_RUNS` (200) times each way: when nothing may start (every wake
 * of the dispatcher then) and when one task at the back of the queue may (a template without
 * locks; the claimed task is put back between runs). Target p50, p99 ≤ 5 ms on SQLite.
 * Alone: `bash scripts/with-node.sh node bench/claim.ts` (BENCH_DIALECT=postgres for PostgreSQL).
 */
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { bootBenchApi, quickTaskProject } from './bench-api.ts';
import { queueRank } from '../src/server/domain/tasks/priority.ts';
import { claimNextTask } from '../src/server/engine/queue/claim-task.ts';
import type { DialectName } from '../tests/support/dialects.ts';
import { insertTemplate } from '../tests/support/fixtures.ts';

const TARGET_MS = 5;
const QUEUED = 10_000;
const TEMPLATES = 50;

export async function runClaimBench(): Promise<void> {
  const runs = Number(process.env.BENCH_CLAIM_RUNS ?? 200);
  const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
  const { tmp, database, deps } = await bootBenchApi('claim-bench', dialect);
  const { db } = deps;
  try {
    const fx = await quickTaskProject(deps, tmp);
    const created = new Date().toISOString();
    const lock = await db.insertInto('project_lock').values({ project_id: fx.project.id, name: 'prod', capacity: 1, description: '', created })
      .returning('id').executeTakeFirstOrThrow();
    const templates: number[] = [];
    for (let i = 0; i < TEMPLATES; i++) {
      const t = await insertTemplate(db, fx.project.id, { name: `Locked ${i}`, playbook: 'quick.sh', repository_id: fx.repository.id, allow_parallel_tasks: 1 });
      await db.insertInto('template_lock').values({ template_id: t.id, lock_id: lock.id }).execute();
      templates.push(t.id);
    }
    let rank = queueRank(created, 'normal');
    const task = (templateId: number, status: string) => ({
      project_id: fx.project.id, template_id: templateId, status, playbook: '', environment: '{}', params: '{}', message: '', commit_message: '', created,
      queue_rank: rank++,
    });
    await db.insertInto('task').values(task(templates[0]!, 'running')).execute();
    for (let i = 0; i < QUEUED; i += 500) {
      await db.insertInto('task').values(Array.from({ length: 500 }, (_, j) => task(templates[(i + j) % TEMPLATES]!, 'waiting'))).execute();
    }
    const blocked = await timeClaims(runs, async () => {
      if (await claimNextTask(db, 'bench', 0)) throw new Error('a task behind the lock was claimed');
    });
    const free = (await db.insertInto('task').values(task(fx.template.id, 'waiting')).returning('id').executeTakeFirstOrThrow()).id;
    const startable = await timeClaims(runs, async () => {
      const claimed = await claimNextTask(db, 'bench', 0);
      if (claimed?.id !== free) throw new Error(`claimed ${claimed?.id ?? 'nothing'}, not the free task ${free}`);
    }, () => db.updateTable('task').set({ status: 'waiting', locked_by: null }).where('id', '=', free).execute());
    for (const [what, times] of [['nothing may start', blocked], ['the last task may start', startable]] as const) {
      console.log(`claim with ${QUEUED} tasks queued behind a lock (${dialect}, ${runs} runs), ${what}: p50 ${times.p50.toFixed(2)} ms, p99 ${times.p99.toFixed(2)} ms (target ≤ ${TARGET_MS} ms)`);
    }
  } finally {
    await db.destroy();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function timeClaims(runs: number, claim: () => Promise<void>, reset: () => Promise<unknown> = async () => {}): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs + 10; i++) {
    const started = performance.now();
    await claim();
    // the first runs warm the caches and the statement plans
    if (i >= 10) times.push(performance.now() - started);
    await reset();
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runClaimBench();
