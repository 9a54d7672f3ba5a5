/**
 * The Hosts view with 10,000 hosts and 100,000 recap rows (issue 50): one static inventory of
 * 10,000 hosts (100 groups), 20 templates, 100 tasks each recording 1,000 hosts' PLAY RECAP.
 * Times `listProjectHosts` (what `GET /api/project/{id}/hosts` answers: one page of 50, by
 * name), and the same filtered by result (every host's history read), `BENCH_HOSTS_RUNS` (21)
 * times each after the inventory's listing is cached, median, beside the same project's first
 * page of tasks as the baseline of the same run. Target ≤ 100 ms on SQLite.
 * Alone: `bash scripts/with-node.sh node bench/hosts.ts` (BENCH_DIALECT=postgres for PostgreSQL).
 */
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { bootBenchApi } from './bench-api.ts';
import { listProjectHosts } from '../src/server/engine/inventory/project-hosts.ts';
import type { DialectName } from '../tests/support/dialects.ts';
import { insertProjectWithTemplate, insertTemplate } from '../tests/support/fixtures.ts';

const TARGET_MS = 100;
const HOSTS = 10_000;
const TEMPLATES = 20;
const TASKS = 100;
const HOSTS_PER_TASK = 1_000;

export async function runHostsBench(): Promise<void> {
  const runs = Number(process.env.BENCH_HOSTS_RUNS ?? 21);
  const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
  const { tmp, database, deps } = await bootBenchApi('hosts-bench', dialect);
  const { db } = deps;
  try {
    const name = (i: number) => `host${String(i).padStart(5, '0')}.example.net`;
    const lines: string[] = [];
    for (let g = 0; g < 100; g++) lines.push(`[group${g}]`, ...Array.from({ length: HOSTS / 100 }, (_, i) => name(g * (HOSTS / 100) + i)));
    const fx = await insertProjectWithTemplate(db, { ownerId: 1, inventory: lines.join('\n') });
    const projectId = fx.project.id;
    const templates = [fx.template.id];
    for (let i = 1; i < TEMPLATES; i++) templates.push((await insertTemplate(db, projectId, { name: `T${i}`, playbook: 'site.yml', inventory_id: fx.inventory.id })).id);
    const created = new Date().toISOString();
    for (let t = 0; t < TASKS; t++) {
      const task = await db.insertInto('task').values({
        project_id: projectId, template_id: templates[t % TEMPLATES]!, status: 'success', playbook: '', environment: '{}', params: '{}', message: '', commit_message: '', created,
      }).returning('id').executeTakeFirstOrThrow();
      const first = (t * HOSTS_PER_TASK) % HOSTS;
      for (let i = 0; i < HOSTS_PER_TASK; i += 250) {
        await db.insertInto('task_ansible_host').values(Array.from({ length: 250 }, (_, j) => ({
          task_id: task.id, project_id: projectId, host: name(first + i + j), ok: 3, changed: (i + j) % 3 === 0 ? 1 : 0, unreachable: (i + j) % 97 === 0 ? 1 : 0,
          failed: (i + j) % 31 === 0 ? 1 : 0, skipped: 0, rescued: 0, ignored: 0, created,
        }))).execute();
      }
    }
    const hostsPage = () => listProjectHosts(deps, projectId, { offset: 0, limit: 50 });
    const first = await hostsPage();
    if (first.total !== HOSTS || first.errors.length) throw new Error(`listed ${first.total} hosts, errors ${JSON.stringify(first.errors)}`);
    const failed = await median(runs, () => listProjectHosts(deps, projectId, { result: 'failed', offset: 0, limit: 50 }));
    const tasksPage = () => db.selectFrom('task').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(50).execute();
    const hosts = await median(runs, hostsPage);
    const tasks = await median(runs, tasksPage);
    console.log(`Hosts view, ${HOSTS} hosts and ${TASKS * HOSTS_PER_TASK} recap rows (${dialect}, ${runs} runs): median ${hosts.toFixed(1)} ms `
      + `(target ≤ ${TARGET_MS} ms), filtered by result (every host's history) ${failed.toFixed(1)} ms; a page of tasks ${tasks.toFixed(2)} ms; ratios ${(hosts / tasks).toFixed(0)}× and ${(failed / tasks).toFixed(0)}×`);
  } finally {
    await db.destroy();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function median(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = performance.now();
    await work();
    // the first runs warm the caches and the statement plans
    if (i >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runHostsBench();
