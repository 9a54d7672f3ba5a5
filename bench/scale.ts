/**
 * Scale figures (issue 34): the console's pages with 10,000 templates and 1,000,000 tasks
 * against the same pages with 100 templates and 1,000 tasks, on SQLite and on PostgreSQL.
 * Both servers run side by side in this process and are asked in turn (small page, big page,
 * small, big...), so the machine's load weighs on both alike; each figure is the median
 * server-side render time (request to last byte) of BENCH_SCALE_RUNS requests after a warm-up.
 * Target: every big page within 2× of its small twin.
 * Alone: `bash scripts/with-node.sh node bench/scale.ts` (BENCH_SCALE_DIALECTS=sqlite,postgres;
 * BENCH_SCALE_TASKS and BENCH_SCALE_TEMPLATES size the big database; BENCH_SCALE_PAGES=templates
 * measures only the pages whose label holds that word).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { startConsoleServer, type ConsoleServer } from '../tests/console/support/console-server.ts';
import { adminApi, insertScriptProject } from '../tests/console/support/real-tasks.ts';
import { freshDatabase, type DialectName } from '../tests/support/dialects.ts';
import { isPostgres } from '../src/server/db/dialect.ts';

const BIG = { templates: Number(process.env.BENCH_SCALE_TEMPLATES ?? 10_000), tasks: Number(process.env.BENCH_SCALE_TASKS ?? 1_000_000) };
const SMALL = { templates: 100, tasks: 1_000 };
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 41);
const WARMUP = 15;
const BATCH = 1000;
const TARGET = 2;

interface Side { server: ConsoleServer; cookie: string; projectId: number; drop: () => Promise<void> }

export async function runScaleBench(): Promise<void> {
  const dialects = (process.env.BENCH_SCALE_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
  for (const dialect of dialects) {
    const tmp = mkdtempSync(join(tmpdir(), 'signalbox-scale-'));
    const sides: Side[] = [];
    try {
      console.log(`scale (${dialect}): ${SMALL.templates} templates / ${SMALL.tasks.toLocaleString('en')} tasks against ${BIG.templates.toLocaleString('en')} / ${BIG.tasks.toLocaleString('en')}`);
      for (const size of [SMALL, BIG]) sides.push(await seededServer(dialect, tmp, size));
      const [small, big] = sides as [Side, Side];
      const only = process.env.BENCH_SCALE_PAGES;
      for (const [label, page] of pages().filter(([label]) => !only || label.includes(only))) {
        const pair = await medianPair(small, big, page).catch((err: Error) => err);
        if (pair instanceof Error) { console.log(`  ${label.padEnd(26)} ✘ ${pair.message}`); continue; }
        const [a, b] = pair;
        const ratio = b / a;
        console.log(`  ${label.padEnd(26)} ${a.toFixed(1).padStart(7)} ms small, ${b.toFixed(1).padStart(7)} ms big: ${ratio.toFixed(2)}× ${ratio <= TARGET ? '✔' : '✘'} (target ≤ ${TARGET}×)`);
      }
      console.log(`  (median of ${RUNS}; load ${loadavg()[0]!.toFixed(1)})`);
    } finally {
      for (const side of sides) { await side.server.close(); await side.drop(); }
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

/** The pages compared, as paths of a project. */
function pages(): [string, (projectId: number) => string][] {
  return [
    ['history, first page', (p) => `/project/${p}/history`],
    ['history, last page', (p) => `/project/${p}/history?after=0`],
    ['templates search', (p) => `/project/${p}/templates?view=all&q=svc-00042`],
    ['wall board', (p) => `/board?projects=${p}`],
  ];
}

async function seededServer(dialect: DialectName, tmp: string, size: { templates: number; tasks: number }): Promise<Side> {
  const database = await freshDatabase(dialect, tmp);
  const server = await startConsoleServer({}, database.settings);
  const fx = await insertScriptProject(server, { 'hello.sh': 'echo hello\n' }, 'hello.sh', 'svc-00000 deploy');
  const started = performance.now();
  const templateIds = await insertTemplates(server, fx.template.id, size.templates - 1);
  await insertTasks(server, fx.project.id, [fx.template.id, ...templateIds], fx.adminId, size.tasks);
  // PostgreSQL's autovacuum would have analysed tables this size long before anyone looked
  if (isPostgres(server.deps.db)) await sql`analyze`.execute(server.deps.db);
  console.log(`  seeded ${size.templates.toLocaleString('en')} templates and ${size.tasks.toLocaleString('en')} tasks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const { cookie } = await adminApi(server);
  return { server, cookie, projectId: fx.project.id, drop: database.drop };
}

/** Copies of a template, named and described apart (`svc-00042 backup`: a search for one finds one). */
async function insertTemplates(server: ConsoleServer, fromId: number, count: number): Promise<number[]> {
  const { db } = server.deps;
  const { id: _id, ...model } = await db.selectFrom('template').selectAll().where('id', '=', fromId).executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (let i = 0; i < count; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - i) }, (_, k) => ({
      ...model, name: `svc-${String(i + k + 1).padStart(5, '0')} ${['deploy', 'backup', 'patch', 'audit'][(i + k) % 4]}`, description: `Runs job ${i + k + 1}`,
    }));
    ids.push(...(await db.insertInto('template').values(rows).returning('id').execute()).map((r) => r.id));
  }
  return ids;
}

/** Finished tasks spread over the templates, a minute apart, as years of use leave them. */
async function insertTasks(server: ConsoleServer, projectId: number, templateIds: number[], userId: number, count: number): Promise<void> {
  const base = Date.parse('2024-01-01T00:00:00Z');
  const statuses = ['success', 'success', 'success', 'error', 'stopped'];
  for (let i = 0; i < count; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - i) }, (_, k) => {
      const n = i + k;
      const start = new Date(base + n * 60_000).toISOString();
      return {
        project_id: projectId, template_id: templateIds[n % templateIds.length]!, status: statuses[n % statuses.length]!, user_id: userId,
        playbook: '', environment: '{}', message: `run ${n}`, commit_message: 'Bump version', params: '{}',
        created: start, start, end: new Date(base + n * 60_000 + 42_000).toISOString(),
      };
    });
    await server.deps.db.insertInto('task').values(rows).execute();
  }
}

/** Median times of one page on both servers, asked in turn. */
async function medianPair(small: Side, big: Side, page: (projectId: number) => string): Promise<[number, number]> {
  const once = async (side: Side) => {
    const path = page(side.projectId);
    const started = performance.now();
    const res = await fetch(side.server.url + path, { headers: { cookie: side.cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) { await once(small); await once(big); }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    times[0].push(await once(small));
    times[1].push(await once(big));
  }
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return [median(times[0]), median(times[1])];
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await runScaleBench();
