/**
 * Load figures of `npm run bench`: the real server started as its own process (SQLite, a fresh
 * temp folder), a loopback client in this process, 50 concurrent clients:
 *  1. RSS of the idle server once it has started and answered a sign-in;
 *  2. peak RSS while the clients call `/api/projects`, then `/project/{id}/history` (which holds
 *     HISTORY_TASKS tasks), WARM_SECONDS each to warm up, then LOAD_SECONDS each;
 *  3. the history page's throughput as a share of the JSON call's, and beside it the share of a
 *     signed-in 404 page (the console's shell with no data of its own: the floor of any page).
 * Targets: idle ≤ 120 MB, peak ≤ 250 MB, history ≥ 40 %. Run alone with
 * `bash scripts/with-node.sh node bench/load.ts`. The server gets the V8 flags `npm start` gives
 * it (scripts/start.sh); SIGNALBOX_NODE_OPTIONS replaces them, to compare.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/server/db/database.ts';

const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 50);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 15);
const WARM_SECONDS = 3;
const HISTORY_TASKS = 2_000;
const TARGETS = { idleMb: 120, peakMb: 250, historyShare: 40 };
const PASSWORD = 'bench-password-1';
/** The V8 flags scripts/start.sh starts the server with. */
const START_FLAGS = '--max-semi-space-size=4 --heap-growing-percent=20';

/** Prints the load figures; starts and stops its own server process. */
export async function runLoadBench(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-load-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(tmp, port);
  try {
    await waitUntilUp(base, server);
    const cookie = await signIn(base);
    const projectId = await createProject(base, cookie);
    await insertHistory(join(tmp, 'db.sqlite'), projectId, HISTORY_TASKS);
    await sleep(2000);
    const idle = rssOf(server.pid!);

    let peak = idle;
    const sampler = setInterval(() => { peak = Math.max(peak, rssOf(server.pid!)); }, 100);
    // Both URLs are served WARM_SECONDS before they are counted, so each figure is the server's
    // steady state rather than its JIT warming up (the page's renderer warms far slower).
    await hammer(`${base}/api/projects`, cookie, WARM_SECONDS);
    await hammer(`${base}/project/${projectId}/history`, cookie, WARM_SECONDS);
    await hammer(`${base}/no-such-page`, cookie, WARM_SECONDS, 404);
    const json = await hammer(`${base}/api/projects`, cookie);
    const history = await hammer(`${base}/project/${projectId}/history`, cookie);
    const shell = await hammer(`${base}/no-such-page`, cookie, LOAD_SECONDS, 404);
    clearInterval(sampler);
    await sleep(3000);
    const after = rssOf(server.pid!);

    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    const share = (perSecond: number) => ((perSecond / json.perSecond) * 100).toFixed(0);
    console.log(`signalbox load benchmark (sqlite, ${CLIENTS} concurrent clients, ${LOAD_SECONDS} s a URL, ${HISTORY_TASKS.toLocaleString('en')} tasks)`);
    console.log(`  idle RSS after start: ${mb(idle)} MB (target ≤ ${TARGETS.idleMb} MB)`);
    console.log(`  peak RSS under load:  ${mb(peak)} MB (target ≤ ${TARGETS.peakMb} MB; ${mb(after)} MB 3 s after)`);
    console.log(`  /api/projects: ${Math.round(json.perSecond)} req/s; /project/${projectId}/history: ${Math.round(history.perSecond)} req/s`
      + ` (${json.failed + history.failed + shell.failed} failed)`);
    console.log(`  history page throughput: ${share(history.perSecond)} % of the JSON call's (target ≥ ${TARGETS.historyShare} %)`);
    console.log(`  the shell alone (a signed-in 404 page, no data of its own): ${Math.round(shell.perSecond)} req/s, ${share(shell.perSecond)} % of the JSON call's`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(tmp, { recursive: true, force: true });
  }
}

function startServer(tmp: string, port: number): ChildProcess {
  const extra = (process.env.SIGNALBOX_NODE_OPTIONS ?? START_FLAGS).split(' ').filter(Boolean);
  // the bundle npm start runs (scripts/install.sh builds it), else the sources
  const entry = existsSync(new URL('../dist/signalbox/server.mjs', import.meta.url)) ? 'dist/signalbox/server.mjs' : 'src/server/cli/main.ts';
  return spawn(process.execPath, [...extra, entry, 'server'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: {
      ...process.env, SEMAPHORE_PORT: String(port), SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_DB_HOST: join(tmp, 'db.sqlite'),
      SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_ADMIN: 'admin', SEMAPHORE_ADMIN_PASSWORD: PASSWORD,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Resident set size of a process, from /proc (Linux). */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? 0) * 1024;
}

/** CLIENTS loops calling `url` for `seconds`; each request's body is read in full; any other status than `expected` fails. */
async function hammer(url: string, cookie: string, seconds = LOAD_SECONDS, expected = 200): Promise<{ perSecond: number; failed: number }> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const client = async () => {
    while (Date.now() < until) {
      try {
        const res = await fetch(url, { headers: { cookie } });
        await res.arrayBuffer();
        if (res.status === expected) done++;
        else failed++;
      } catch {
        failed++; // a reset connection counts as a failed request, not the end of the run
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { perSecond: done / ((Date.now() - started) / 1000), failed };
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: PASSWORD }),
  });
  if (res.status !== 204) throw new Error(`sign-in answered ${res.status}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function createProject(base: string, cookie: string): Promise<number> {
  const res = await fetch(`${base}/api/projects`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ name: 'Load', demo: true }),
  });
  if (res.status !== 201) throw new Error(`project creation answered ${res.status}`);
  return ((await res.json()) as { id: number }).id;
}

/** Finished tasks written straight into the server's database (WAL allows a second writer). */
async function insertHistory(file: string, projectId: number, count: number): Promise<void> {
  const db = openDatabase({ dialect: 'sqlite', host: file });
  try {
    const template = await db.selectFrom('template').select('id').where('project_id', '=', projectId).executeTakeFirstOrThrow();
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < count; i += 500) {
      const rows = Array.from({ length: Math.min(500, count - i) }, (_, k) => {
        const at = start + (i + k) * 60_000;
        return {
          project_id: projectId, template_id: template.id, status: (i + k) % 7 ? 'success' : 'error', user_id: 1, playbook: '',
          environment: '{}', message: `run ${i + k}`, commit_message: '', params: '{}',
          created: new Date(at).toISOString(), start: new Date(at).toISOString(), end: new Date(at + 30_000).toISOString(),
        };
      });
      await db.insertInto('task').values(rows).execute();
    }
  } finally {
    await db.destroy();
  }
}

async function waitUntilUp(base: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/ping`)).ok) return;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  throw new Error('the server did not start in 30 s');
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (import.meta.main) await runLoadBench();
