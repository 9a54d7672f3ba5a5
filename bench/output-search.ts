/**
 * Task log search (`GET /api/project/{id}/tasks/{tid}/output/search?q=`): a finished task whose
 * log has 1,000,000 lines (`BENCH_SEARCH_LINES`), inserted straight into `task_output` with a
 * second task's lines interleaved; then the median wall time over `BENCH_SEARCH_RUNS` (5) of
 * a search whose only match is the last line (the whole log is read), one with no match at all,
 * and one matching every 10th line (the first 100 answered). Target < 200 ms each.
 * Alone: `bash scripts/with-node.sh node bench/output-search.ts` (BENCH_DIALECT=postgres for
 * PostgreSQL at 127.0.0.1:5432).
 */
import { rmSync } from 'node:fs';
import { bootBenchApi } from './bench-api.ts';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { insertOutputLines, type OutputLine } from '../src/server/engine/output/insert-output.ts';
import type { DialectName } from '../tests/support/dialects.ts';
import { insertProjectWithTemplate } from '../tests/support/fixtures.ts';

const TARGET_MS = 200;

export async function runOutputSearchBench(): Promise<void> {
  const lines = Number(process.env.BENCH_SEARCH_LINES ?? 1_000_000);
  const runs = Number(process.env.BENCH_SEARCH_RUNS ?? 5);
  const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
  const { tmp, database, deps, api } = await bootBenchApi('search-bench', dialect);
  try {
    const fx = await insertProjectWithTemplate(deps.db, { ownerId: 1 });
    const newTask = async () => (await deps.db.insertInto('task').values({
      project_id: fx.project.id, template_id: fx.template.id, status: 'success', user_id: 1, playbook: '', environment: '{}',
      message: '', commit_message: '', params: '{}', created: new Date().toISOString(),
      start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date(Date.now() - 3_000_000).toISOString(),
    }).returning('id').executeTakeFirstOrThrow()).id;
    const task = await newTask();
    const other = await newTask();
    const time = new Date().toISOString();
    const BATCH = 10_000;
    for (let start = 0; start < lines; start += BATCH) {
      const batch: OutputLine[] = [];
      for (let i = start; i < Math.min(start + BATCH, lines); i++) {
        const last = i === lines - 1;
        batch.push({ time, output: last ? 'PLAY RECAP needle-at-the-end' : `TASK [deploy web ${i}] ok: [host${i % 50}] => changed=${i % 10 === 0 ? 'marker' : 'false'}` });
      }
      await insertOutputLines(deps.db, task, batch);
      await insertOutputLines(deps.db, other, [{ time, output: `interleaved line ${start}` }]);
    }
    const login = await api.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: 'bench-password-1' }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const search = async (q: string) => {
      const started = performance.now();
      const res = await api.request(`/api/project/${fx.project.id}/tasks/${task}/output/search?q=${encodeURIComponent(q)}`, { headers: { cookie } });
      const body = (await res.json()) as { matches: { line: number }[]; more: boolean };
      return { ms: performance.now() - started, body };
    };
    console.log(`task log search, ${lines.toLocaleString('en')} lines (${dialect}), median of ${runs}:`);
    for (const [label, q, check] of [
      ['only the last line matches', 'needle-at-the-end', (b: { matches: { line: number }[] }) => b.matches.length === 1 && b.matches[0]!.line === lines],
      ['no line matches', 'nowhere-in-this-log', (b: { matches: { line: number }[] }) => b.matches.length === 0],
      ['every 10th line matches (first 100)', 'changed=marker', (b: { matches: { line: number }[] }) => b.matches.length === 100 && b.matches[99]!.line === 991],
    ] as const) {
      const times: number[] = [];
      let ok = true;
      await search(q); // warm-up
      for (let i = 0; i < runs; i++) {
        const { ms, body } = await search(q);
        times.push(ms);
        ok &&= check(body);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)]!;
      console.log(`  ${label}: ${median.toFixed(0)} ms (target < ${TARGET_MS} ms)${ok ? '' : ' — WRONG ANSWER'}`);
    }
  } finally {
    await deps.db.destroy();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runOutputSearchBench();
