/**
 * Workflow successor latency: a two-node workflow (quick task → quick task) run
 * `BENCH_WORKFLOW_RUNS` (50) times; for each run, the time from the first task's end (its
 * `end` column) to the second task's start (the second node's claim, which queues its task).
 * Target p50 ≤ 50 ms. Alone: `bash scripts/with-node.sh node bench/workflows.ts`
 * (BENCH_DIALECT=postgres for PostgreSQL at 127.0.0.1:5432).
 */
import { rmSync } from 'node:fs';
import { bootBenchApi, quickTaskProject } from './bench-api.ts';
import { pathToFileURL } from 'node:url';
import { startEngine } from '../src/server/engine/engine.ts';
import type { DialectName } from '../tests/support/dialects.ts';
import { insertTemplate } from '../tests/support/fixtures.ts';

const TARGET_MS = 50;

export async function runWorkflowBench(): Promise<void> {
  const runs = Number(process.env.BENCH_WORKFLOW_RUNS ?? 50);
  const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
  const { tmp, database, deps, api } = await bootBenchApi('workflow-bench', dialect);
  const engine = await startEngine(deps);
  try {
    const fx = await quickTaskProject(deps, tmp);
    const second = await insertTemplate(deps.db, fx.project.id, { name: 'Second', playbook: 'quick.sh', repository_id: fx.repository.id });
    const login = await api.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: 'bench-password-1' }) });
    const headers = { 'content-type': 'application/json', cookie: login.headers.get('set-cookie')!.split(';')[0]! };
    const p = `/api/project/${fx.project.id}/workflows`;
    const created = await api.request(p, {
      method: 'POST', headers,
      body: JSON.stringify({ name: 'Bench', nodes: [{ id: 1, kind: 'task', template_id: fx.template.id }, { id: 2, kind: 'task', template_id: second.id }], edges: [{ source_node_id: 1, destination_node_id: 2 }] }),
    });
    const wf = (await created.json()) as { id: number };
    const gaps: number[] = [];
    for (let i = 0; i < runs; i++) {
      const run = (await (await api.request(`${p}/${wf.id}/run`, { method: 'POST', headers })).json()) as { id: number };
      for (;;) {
        const row = await deps.db.selectFrom('workflow_run').select('status').where('id', '=', run.id).executeTakeFirstOrThrow();
        if (row.status !== 'running') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const nodes = await deps.db.selectFrom('workflow_run_node').innerJoin('task', 'task.id', 'workflow_run_node.task_id')
        .select(['workflow_run_node.node_id', 'workflow_run_node.start', 'task.end']).where('run_id', '=', run.id).orderBy('workflow_run_node.id').execute();
      if (nodes.length === 2 && nodes[0]!.end) gaps.push(new Date(nodes[1]!.start).getTime() - new Date(nodes[0]!.end).getTime());
    }
    gaps.sort((a, b) => a - b);
    const at = (q: number) => gaps[Math.min(gaps.length - 1, Math.ceil(q * gaps.length) - 1)] ?? NaN;
    console.log(`workflow successor start after the task before it ends (${dialect}, ${gaps.length} runs): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (target p50 ≤ ${TARGET_MS} ms)`);
  } finally {
    await engine.stop();
    await deps.db.destroy();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runWorkflowBench();
