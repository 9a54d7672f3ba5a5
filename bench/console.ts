/**
 * Console figures of `npm run bench` (the console must be built: `npm run build`), on the real
 * host server with the task engine, SQLite:
 *  1. gzip JavaScript and CSS each page ships on first load (login, history, stats, activity,
 *     settings, an open task log), against the 90 KB JS target (2 KB for the history, 0 for
 *     read-only pages; Semaphore's console ships 437 KB) and the 25 KB CSS target;
 *  2. server-side render time of /project/{id}/history with 10,000 tasks in the database, as a
 *     ratio to the JSON API call for the same page of rows (median of BENCH_SSR_RUNS; target ≤ 2×).
 * Run alone with `bash scripts/with-node.sh node bench/console.ts`.
 */
import { performance } from 'node:perf_hooks';
import { startConsoleServer, type ConsoleServer } from '../tests/console/support/console-server.ts';
import { adminApi, insertScriptProject, waitForTask } from '../tests/console/support/real-tasks.ts';
import { measurePageJs } from '../tests/console/support/js-weight.ts';
import { measurePageCss } from '../tests/console/support/css-weight.ts';
import { PAGE_SIZE } from '../src/console/paging.ts';

const TASKS = Number(process.env.BENCH_HISTORY_TASKS ?? 10_000);
const SSR_RUNS = Number(process.env.BENCH_SSR_RUNS ?? 101);
const WARMUP = 150;
const JS_TARGET_KB = 90;
const CSS_TARGET_KB = 25;
const SEMAPHORE_KB = 437;

/** Prints the console figures; starts and stops its own server. */
export async function runConsoleBench(): Promise<void> {
  const server = await startConsoleServer();
  try {
    const api = await adminApi(server);
    const fx = await insertScriptProject(server, { 'hello.sh': 'for i in $(seq 1 200); do echo "hello line $i"; done\n' }, 'hello.sh');
    const projectId = fx.project.id;
    const taskId = await api.runTask(projectId, { template_id: fx.template.id, message: 'bench' });
    await waitForTask(server.deps.db, taskId);

    console.log('signalbox console benchmark (sqlite)');
    console.log(`gzip JS on first load (target < ${JS_TARGET_KB} KB, history ≤ 2 KB, read-only pages 0; Semaphore's console ships ${SEMAPHORE_KB} KB) and CSS (target ≤ ${CSS_TARGET_KB} KB):`);
    const pages: [string, string][] = [
      ['login', '/auth/login'],
      ['history (live updates)', `/project/${projectId}/history`],
      ['history, continuous list', `/project/${projectId}/history?view=all`],
      ['stats', `/project/${projectId}/stats`],
      ['activity', `/project/${projectId}/activity`],
      ['settings', `/project/${projectId}/settings`],
      ['task log open (?t=)', `/project/${projectId}/history?t=${taskId}`],
    ];
    for (const [label, path] of pages) {
      const cookie = path.startsWith('/auth/') ? '' : api.cookie;
      const kb = (await measurePageJs(server.url + path, cookie)).bytes / 1024;
      const cssKb = (await measurePageCss(server.url + path, cookie)).bytes / 1024;
      console.log(`  ${label.padEnd(24)} JS ${kb.toFixed(1).padStart(6)} KB  (${((kb / SEMAPHORE_KB) * 100).toFixed(0)} % of Semaphore's)   CSS ${cssKb.toFixed(1).padStart(5)} KB`);
    }

    await insertHistoryTasks(server, projectId, fx.template.id, fx.adminId, TASKS);
    const [ssr, json] = await medianPairMs(server, `/project/${projectId}/history`, `/api/project/${projectId}/tasks?offset=0&limit=${PAGE_SIZE}`, api.cookie);
    console.log(`history SSR with ${(TASKS + 1).toLocaleString('en')} tasks: ${ssr.toFixed(1)} ms; JSON API, same ${PAGE_SIZE} rows: ${json.toFixed(1)} ms; `
      + `ratio ${(ssr / json).toFixed(2)}× (target ≤ 2×; median of ${SSR_RUNS})`);
  } finally {
    await server.close();
  }
}

/** Finished task rows written straight to the table, as years of history would leave them. */
async function insertHistoryTasks(server: ConsoleServer, projectId: number, templateId: number, userId: number, count: number): Promise<void> {
  const base = Date.parse('2026-01-01T00:00:00Z');
  const statuses = ['success', 'success', 'success', 'error', 'stopped'];
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, k) => {
      const start = base + (i + k) * 60_000;
      return {
        project_id: projectId, template_id: templateId, status: statuses[(i + k) % statuses.length]!, user_id: userId, playbook: '',
        environment: '{}', message: `run ${i + k}`, commit_message: 'Bump version', params: '{}',
        created: new Date(start).toISOString(), start: new Date(start).toISOString(), end: new Date(start + 42_000).toISOString(),
      };
    });
    await server.deps.db.insertInto('task').values(rows).execute();
  }
}

/**
 * Median wall times of GET `a` and GET `b` (body read), measured alternately so the shared
 * machine's load affects both alike, after WARMUP rounds (JIT, SQLite page cache).
 */
async function medianPairMs(server: ConsoleServer, a: string, b: string, cookie: string): Promise<[number, number]> {
  const once = async (path: string) => {
    const started = performance.now();
    const res = await fetch(server.url + path, { headers: { cookie } });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    await res.arrayBuffer();
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) {
    await once(a);
    await once(b);
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < SSR_RUNS; i++) {
    times[0].push(await once(a));
    times[1].push(await once(b));
  }
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return [median(times[0]), median(times[1])];
}

if (import.meta.main) await runConsoleBench();
