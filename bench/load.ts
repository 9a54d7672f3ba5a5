/**
 * Load figures of `npm run bench`: the real server started as its own process (SQLite, a fresh
 * temp folder), 50 keep-alive clients in this process sending a browser's Accept-Encoding:
 *  1. RSS of the idle server once it has started and answered a sign-in;
 *  2. each page against the API call that carries its data (the signed-in 404 page, the
 *     console's shell and nothing else, against `GET /api/user`; the history page, HISTORY_TASKS
 *     tasks, against its 20-task call; the templates page against `GET …/templates`), served
 *     alternately page / call / page / call in PHASE_SECONDS phases after a warm-up, so both
 *     sides of a ratio see the same machine; the page's throughput as a share of the call's;
 *  3. the history page's p50 and p99 latency under that load, and the peak RSS meanwhile.
 * Each figure is printed beside its target with ✔ or ✘, with the load average of the machine
 * (shared machines: the ratios hold better than the request rates), and beside each ratio the
 * same ratio of the server's CPU time per request, which a busy machine disturbs least. Run alone with
 * `bash scripts/with-node.sh node bench/load.ts`; BENCH_LOAD_SECONDS (per pair, default 12),
 * BENCH_LOAD_CLIENTS (50). The server gets the V8 flags `npm start` gives it (scripts/start.sh);
 * SIGNALBOX_NODE_OPTIONS replaces them, to compare (`--cpu-prof --cpu-prof-dir=DIR` profiles it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/server/db/database.ts';

const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 50);
const PAIR_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 12);
const PHASE_SECONDS = 1.5;
const WARM_SECONDS = 2;
export const HISTORY_TASKS = 2_000;
const TARGETS = { idleMb: 100, peakMb: 200, p99OverP50: 4 };
const PASSWORD = 'bench-password-1';
/** What Chromium sends. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
/** The V8 flags scripts/start.sh starts the server with. */
export const START_FLAGS = '--max-semi-space-size=4 --heap-growing-percent=20';

/** The server process under test, whose CPU time each phase reads. */
let serverPid = 0;
export const measureCpuOf = (pid: number) => { serverPid = pid; };

interface Pair {
  page: string;
  /** the page's URL and the status it answers with */
  pageUrl: string;
  pageStatus: number;
  call: string;
  callUrl: string;
  /** the page's throughput as a share of the call's, at least (%) */
  target: number;
}

interface Served {
  requests: number;
  failed: number;
  seconds: number;
  /** each request's time in ms */
  latencies: number[];
  /** the server's CPU time meanwhile (ms) */
  cpuMs: number;
}

/** Prints the load figures; starts and stops its own server process. */
export async function runLoadBench(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-load-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(tmp, port);
  serverPid = server.pid!;
  const loadBefore = loadavg()[0]!;
  try {
    await waitUntilUp(base, server);
    const cookie = await signIn(base);
    const projectId = await createProject(base, cookie);
    await insertHistory(join(tmp, 'db.sqlite'), projectId, HISTORY_TASKS);
    await sleep(2000);
    const idle = rssOf(server.pid!);

    let peak = idle;
    const sampler = setInterval(() => { peak = Math.max(peak, rssOf(server.pid!)); }, 100);
    const project = `/project/${projectId}`;
    const pairs: Pair[] = [
      { page: 'signed-in 404 page', pageUrl: `${base}/no-such-page`, pageStatus: 404, call: 'GET /api/user', callUrl: `${base}/api/user`, target: 35 },
      { page: 'history page', pageUrl: `${base}${project}/history`, pageStatus: 200, call: 'GET …/tasks?offset=0&limit=20', callUrl: `${base}/api${project}/tasks?offset=0&limit=20`, target: 40 },
      { page: 'templates page', pageUrl: `${base}${project}/templates`, pageStatus: 200, call: 'GET …/templates', callUrl: `${base}/api${project}/templates`, target: 35 },
    ];
    // every URL is served before it is counted, so each figure is the server's steady state
    // rather than its JIT warming up (a page's renderer warms far slower than an API route)
    for (const pair of pairs) {
      await hammer(pair.pageUrl, cookie, WARM_SECONDS, pair.pageStatus);
      await hammer(pair.callUrl, cookie, WARM_SECONDS);
    }
    const results = [];
    for (const pair of pairs) results.push({ pair, ...(await alternate(pair, cookie)) });
    clearInterval(sampler);
    await sleep(3000);
    const after = rssOf(server.pid!);
    const loadAfter = loadavg()[0]!;

    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    const mark = (ok: boolean) => (ok ? '✔' : '✘');
    const rate = (s: Served) => s.requests / s.seconds;
    const failed = results.reduce((n, r) => n + r.page.failed + r.call.failed, 0);
    console.log(`signalbox load benchmark (sqlite, ${CLIENTS} keep-alive clients sending "${BROWSER_ACCEPT_ENCODING}", ${PAIR_SECONDS} s a pair in ${PHASE_SECONDS} s phases, ${HISTORY_TASKS.toLocaleString('en')} tasks; load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}${failed ? `; ${failed} requests FAILED` : ''})`);
    const cpuPer = (s: Served) => s.cpuMs / s.requests;
    for (const { pair, page, call } of results) {
      const share = (rate(page) / rate(call)) * 100;
      console.log(`  ${mark(share >= pair.target)} ${pair.page} ${Math.round(rate(page))} req/s, ${pair.call} ${Math.round(rate(call))} req/s: ${share.toFixed(0)} % (target ≥ ${pair.target} %)`
        + `; server CPU per request ${cpuPer(page).toFixed(2)} / ${cpuPer(call).toFixed(2)} ms: ${((cpuPer(call) / cpuPer(page)) * 100).toFixed(0)} %`);
    }
    const history = results[1]!.page.latencies.sort((a, b) => a - b);
    const p50 = percentile(history, 50);
    const p99 = percentile(history, 99);
    console.log(`  ${mark(p99 <= TARGETS.p99OverP50 * p50)} history page under load: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, p99 = ${(p99 / p50).toFixed(1)} × p50 (target ≤ ${TARGETS.p99OverP50} ×)`);
    console.log(`  ${mark(mb(idle) <= TARGETS.idleMb)} idle RSS after start: ${mb(idle)} MB (target ≤ ${TARGETS.idleMb} MB)`);
    console.log(`  ${mark(mb(peak) <= TARGETS.peakMb)} peak RSS under load: ${mb(peak)} MB (target ≤ ${TARGETS.peakMb} MB; ${mb(after)} MB 3 s after)`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The pair served page / call / page / call…, PHASE_SECONDS each, PAIR_SECONDS in all. */
async function alternate(pair: Pair, cookie: string): Promise<{ page: Served; call: Served }> {
  const page: Served = { requests: 0, failed: 0, seconds: 0, latencies: [], cpuMs: 0 };
  const call: Served = { requests: 0, failed: 0, seconds: 0, latencies: [], cpuMs: 0 };
  const rounds = Math.max(1, Math.round(PAIR_SECONDS / (2 * PHASE_SECONDS)));
  for (let i = 0; i < rounds; i++) {
    add(page, await hammer(pair.pageUrl, cookie, PHASE_SECONDS, pair.pageStatus));
    add(call, await hammer(pair.callUrl, cookie, PHASE_SECONDS));
  }
  return { page, call };
}

function add(total: Served, phase: Served): void {
  total.requests += phase.requests;
  total.failed += phase.failed;
  total.seconds += phase.seconds;
  total.cpuMs += phase.cpuMs;
  for (const ms of phase.latencies) total.latencies.push(ms);
}

/** The p-th percentile of ascending `sorted`. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Starts the server of this checkout, or of the checkout at `root` (bench/ab-build.ts). */
export function startServer(tmp: string, port: number, flags = process.env.SIGNALBOX_NODE_OPTIONS ?? START_FLAGS,
  root = new URL('..', import.meta.url).pathname, env: Record<string, string> = {}): ChildProcess {
  const extra = flags.split(' ').filter(Boolean);
  // the bundle npm start runs (scripts/install.sh builds it), else the sources
  const entry = existsSync(join(root, 'dist/signalbox/server.mjs')) ? 'dist/signalbox/server.mjs' : 'src/server/cli/main.ts';
  return spawn(process.execPath, [...extra, entry, 'server'], {
    cwd: root,
    env: {
      ...process.env, SEMAPHORE_PORT: String(port), SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_DB_HOST: join(tmp, 'db.sqlite'),
      SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_ADMIN: 'admin', SEMAPHORE_ADMIN_PASSWORD: PASSWORD, ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** CPU time (user and system) a process has used, in ms, from /proc (Linux; clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident set size of a process, from /proc (Linux). */
export function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? 0) * 1024;
}

/** CLIENTS loops calling `url` for `seconds`; each request's body is read in full; any other status than `expected` fails. */
export async function hammer(url: string, cookie: string, seconds: number, expected = 200): Promise<Served> {
  const until = performance.now() + seconds * 1000;
  const served: Served = { requests: 0, failed: 0, seconds: 0, latencies: [], cpuMs: 0 };
  const headers = { cookie, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const client = async () => {
    while (performance.now() < until) {
      const sent = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== expected) {
          served.failed++;
          continue;
        }
        served.requests++;
        served.latencies.push(performance.now() - sent);
      } catch {
        served.failed++; // a reset connection counts as a failed request, not the end of the run
      }
    }
  };
  const started = performance.now();
  const cpuBefore = cpuMsOf(serverPid);
  await Promise.all(Array.from({ length: CLIENTS }, client));
  served.seconds = (performance.now() - started) / 1000;
  served.cpuMs = cpuMsOf(serverPid) - cpuBefore;
  return served;
}

export async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: PASSWORD }),
  });
  if (res.status !== 204) throw new Error(`sign-in answered ${res.status}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

export async function createProject(base: string, cookie: string): Promise<number> {
  const res = await fetch(`${base}/api/projects`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ name: 'Load', demo: true }),
  });
  if (res.status !== 201) throw new Error(`project creation answered ${res.status}`);
  return ((await res.json()) as { id: number }).id;
}

/** Finished tasks written straight into the server's database (WAL allows a second writer). */
export async function insertHistory(file: string, projectId: number, count: number): Promise<void> {
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

export async function waitUntilUp(base: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/ping`)).ok) return;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  throw new Error('the server did not start in 30 s');
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (import.meta.main) await runLoadBench();
