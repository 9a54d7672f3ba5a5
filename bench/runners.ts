/**
 * Remote runner figures (issue 16): one server on a fresh SQLite database, real
 * `signalbox runner start` processes on loopback.
 *  1. dispatch latency to an idle remote runner: POST-equivalent enqueue → `running` reported by
 *     the runner, over BENCH_RUNNER_TASKS tasks one after another (target p50 ≤ 100 ms; Semaphore's
 *     runner polls every 1 s);
 *  2. task starts per minute with two runners taking a burst of quick tasks (one server here; the
 *     two-server figure needs the PostgreSQL fan-out of the scale-out work).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/server/config/config.ts';
import { boot } from '../src/server/boot.ts';
import { createApi } from '../src/server/app.ts';
import { startEngine } from '../src/server/engine/engine.ts';
import { enqueueTask } from '../src/server/engine/queue/enqueue-task.ts';
import { isFinished } from '../src/server/engine/task-status.ts';
import { freshDatabase } from '../tests/support/dialects.ts';
import { insertProjectWithTemplate, insertTemplate } from '../tests/support/fixtures.ts';

const TASKS = Number(process.env.BENCH_RUNNER_TASKS ?? 50);
const BURST = Number(process.env.BENCH_RUNNER_BURST ?? 100);
const ROOT = join(import.meta.dirname, '..');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runRunnersBench(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-bench-runners-'));
  const database = await freshDatabase('sqlite', tmp);
  const config = loadConfig({ SEMAPHORE_ADMIN: 'admin', SEMAPHORE_ADMIN_PASSWORD: 'bench-password-1', SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_MAX_PARALLEL_TASKS: '0' });
  config.db = database.settings;
  const deps = await boot(config, () => {});
  const api = createApi(deps);
  const engine = await startEngine(deps);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const scripts = join(tmp, 'scripts');
  mkdirSync(scripts);
  writeFileSync(join(scripts, 'quick.sh'), 'exit 0\n');
  const fx = await insertProjectWithTemplate(deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'quick.sh' });
  const tagged = await insertTemplate(deps.db, fx.project.id, { name: 'remote', playbook: 'quick.sh', repository_id: fx.repository.id, runner_tag: 'bench', allow_parallel_tasks: 1 });

  const children: ChildProcess[] = [];
  const startRunner = async (name: string) => {
    const res = await api.request('/api/runners', { method: 'POST', headers: { 'content-type': 'application/json', cookie: await adminCookie() }, body: JSON.stringify({ name, tag: 'bench', max_parallel_tasks: 4 }) });
    const created = (await res.json()) as { token: string; private_key: string };
    const dir = join(tmp, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'token'), created.token, { mode: 0o600 });
    writeFileSync(join(dir, 'key'), created.private_key, { mode: 0o600 });
    const child = spawn(process.execPath, [join(ROOT, 'src/server/cli/main.ts'), 'runner', 'start'], {
      cwd: ROOT, stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SEMAPHORE_RUNNER_API_URL: url, SEMAPHORE_RUNNER_TOKEN_FILE: join(dir, 'token'), SEMAPHORE_RUNNER_PRIVATE_KEY_FILE: join(dir, 'key'), SEMAPHORE_TMP_PATH: join(dir, 'work') },
    });
    children.push(child);
  };
  let cookie = '';
  async function adminCookie(): Promise<string> {
    if (cookie) return cookie;
    const login = await api.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: 'bench-password-1' }) });
    return (cookie = login.headers.get('set-cookie')!.split(';')[0]!);
  }

  const run = (count: number) => new Promise<{ queued: Map<number, number>; running: Map<number, number>; finished: Map<number, number> }>((resolve) => {
    const queued = new Map<number, number>();
    const running = new Map<number, number>();
    const finished = new Map<number, number>();
    const unsubscribe = deps.bus.subscribe((m) => {
      if (m.type !== 'update') return;
      if (m.status === 'running' && !running.has(m.task_id)) running.set(m.task_id, performance.now());
      if (isFinished(m.status) && !finished.has(m.task_id)) finished.set(m.task_id, performance.now());
      if (finished.size >= count && [...queued.keys()].every((id) => finished.has(id))) {
        unsubscribe();
        resolve({ queued, running, finished });
      }
    });
    void (async () => {
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        const task = await enqueueTask(deps, { projectId: fx.project.id, templateId: tagged.id });
        queued.set(task.id, t0);
      }
    })();
  });

  try {
    await startRunner('bench-1');
    // the first task waits for the runner process to start; it is not counted
    await run(1);
    const latencies: number[] = [];
    for (let i = 0; i < TASKS; i++) {
      const r = await run(1);
      const [id, t0] = [...r.queued][0]!;
      latencies.push(r.running.get(id)! - t0);
    }
    latencies.sort((a, b) => a - b);
    if (process.env.BENCH_RUNNER_TRACE) {
      const last = await deps.db.selectFrom('task').select(['id', 'created', 'start']).orderBy('id', 'desc').limit(3).execute();
      for (const t of last) {
        const lines = await deps.db.selectFrom('task_output').select(['time', 'output']).where('task_id', '=', t.id).orderBy('id').execute();
        console.log(t.id, t.created, t.start, lines.map((l) => `${l.time.slice(17)} ${l.output.slice(0, 30)}`).join(' | '));
      }
    }
    console.log('signalbox remote runner benchmark (sqlite, runner processes on loopback)');
    console.log(`dispatch latency to an idle runner, queued → running, ${TASKS} tasks: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (target p50 ≤ 100 ms; Semaphore polls every 1 s)`);

    await startRunner('bench-2');
    await run(2);
    const t0 = performance.now();
    const burst = await run(BURST);
    const seconds = (Math.max(...burst.running.values()) - t0) / 1000;
    const ok = [...burst.queued.keys()].filter((id) => burst.running.has(id)).length;
    console.log(`task starts with 1 server + 2 runners, ${BURST} quick tasks queued at once: ${Math.round((ok / seconds) * 60)} per minute (target ≥ 600/min; 2 servers need the PostgreSQL fan-out)`);
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await engine.stop();
    await new Promise<void>((r) => server.close(() => r()));
    await deps.db.destroy();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runRunnersBench();
