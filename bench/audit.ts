/**
 * Audit trail figures (issue 32):
 *  1. what writing the audit trail costs: requests per second of `POST /api/project/{id}/keys`
 *     and of a password sign-in with auditing on and off (`SIGNALBOX_AUDIT_ENABLED`), rounds
 *     alternating on one database, called in this process; and keys over HTTP, as clients see
 *     them: two real servers, one auditing and one not, posted to in alternating phases by
 *     keep-alive clients, with each server's own CPU time; target: throughput on ≥ 95 % of off
 *     (CPU per request printed beside it);
 *  2. a streamed CSV export of 1,000,000 audit rows (`BENCH_AUDIT_ROWS`): time, and the peak
 *     RSS increase of this process (the server) while it streams; target ≤ 30 MB.
 * Alone: `bash scripts/with-node.sh node bench/audit.ts` (BENCH_DIALECT=postgres for PostgreSQL at 127.0.0.1:5432).
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_PASSWORD, bootBenchApi } from './bench-api.ts';
import { cpuMsOf, createProject, freePort, signIn as signInOver, startServer, waitUntilUp } from './load.ts';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createApi } from '../src/server/app.ts';
import { configureAudit } from '../src/server/domain/audit/audit.writer.ts';
import { startAuditExport } from '../src/server/audit-export/audit-export.ts';
import { collectGarbage } from '../src/server/lib/collect-garbage.ts';
import type { DialectName } from '../tests/support/dialects.ts';
import type { Deps } from '../src/server/deps.ts';

const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 40);
const KEY_REQUESTS = Number(process.env.BENCH_AUDIT_KEYS ?? 300);
const SIGN_INS = Number(process.env.BENCH_AUDIT_SIGN_INS ?? 6);
const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const HTTP_ROUNDS = 2 * Math.ceil(Number(process.env.BENCH_AUDIT_HTTP_ROUNDS ?? 20) / 2);
const HTTP_PHASE_SECONDS = 2;
const HTTP_CLIENTS = 8;
const PASSWORD = BENCH_PASSWORD;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function runAuditBench(): Promise<void> {
  const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
  const { tmp, database, deps, api } = await bootBenchApi('audit-bench', dialect);
  try {
    console.log(`audit trail (${dialect}):`);
    if (!process.env.BENCH_AUDIT_PART || process.env.BENCH_AUDIT_PART === 'write') await writeCost(api, deps);
    if (!process.env.BENCH_AUDIT_PART || process.env.BENCH_AUDIT_PART === 'http') await writeCostOverHttp();
    if (!process.env.BENCH_AUDIT_PART || process.env.BENCH_AUDIT_PART === 'export') await exportMemory(api, deps);
  } finally {
    configureAudit({ enabled: true });
    await deps.db.destroy();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

type Api = ReturnType<typeof createApi>;

async function signIn(api: Api): Promise<string> {
  const res = await api.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: PASSWORD }) });
  if (res.status !== 204) throw new Error(`sign-in failed: ${res.status}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/** A rate and this process's CPU time per request (the server and SQLite run in it). */
interface Rate { perSecond: number; cpuMs: number }

/**
 * Requests per second of `request`, `count` times one after another, and the CPU it took: a
 * busy machine slows the first far more than the second.
 */
async function rate(count: number, request: (i: number) => Promise<void>, settle?: () => Promise<void>): Promise<Rate> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) await request(i);
  await settle?.();
  const used = process.cpuUsage(cpu);
  return { perSecond: count / ((performance.now() - started) / 1000), cpuMs: (used.user + used.system) / 1000 / count };
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Audited against not audited, measured as pairs taken back to back: this shared machine's speed
 * drifts by tens of percent within minutes, which a pair sees on both sides. Each pair gives the
 * ratio of the rates and of the CPU times; the median of each is the share.
 */
class Pairs {
  readonly rates: number[] = [];
  readonly cpu: number[] = [];
  readonly on: Rate[] = [];
  readonly off: Rate[] = [];
  add(on: Rate, off: Rate): void {
    this.on.push(on);
    this.off.push(off);
    this.rates.push((on.perSecond / off.perSecond) * 100);
    this.cpu.push((off.cpuMs / on.cpuMs) * 100);
  }
}

async function writeCost(api: Api, deps: Deps): Promise<void> {
  // as in the server: the exporter's pass moves the inbox into the indexed table, and its CPU counts
  const exporter = startAuditExport(deps, []);
  try {
    await measureWriteCost(api, () => exporter.drain());
  } finally {
    await exporter.stop();
  }
}

/** `settle` finishes the work requests left behind (moving the audit inbox); its time is counted. */
async function measureWriteCost(api: Api, settle: () => Promise<void>): Promise<void> {
  const cookie = await signIn(api);
  const project = await (await api.request('/api/projects', { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench' }) })).json() as { id: number };
  let serial = 0;
  const postKey = async () => {
    const res = await api.request(`/api/project/${project.id}/keys`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: `key-${++serial}`, type: 'none' }) });
    if (res.status !== 201) throw new Error(`POST keys: ${res.status}`);
  };
  const keys = new Pairs();
  const signIns = new Pairs();
  await rate(50, postKey); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const measured: Record<'on' | 'off', { keys?: Rate; signIn?: Rate }> = { on: {}, off: {} };
    for (const mode of (round % 2 ? ['off', 'on'] : ['on', 'off']) as ('on' | 'off')[]) {
      configureAudit({ enabled: mode === 'on' });
      measured[mode].keys = await rate(KEY_REQUESTS, postKey, settle);
      measured[mode].signIn = await rate(SIGN_INS, async () => { await signIn(api); }, settle);
    }
    keys.add(measured.on.keys!, measured.off.keys!);
    signIns.add(measured.on.signIn!, measured.off.signIn!);
  }
  configureAudit({ enabled: true });
  report('POST /api/project/{id}/keys', keys, `${ROUNDS} back-to-back pairs of ${KEY_REQUESTS}, in this process`);
  report('password sign-in', signIns, `${ROUNDS} back-to-back pairs of ${SIGN_INS}, in this process`);
}

/**
 * The target is the issue's: throughput (requests per second) audited ≥ 95 % of not. CPU per
 * request is printed beside it as the stricter figure: it counts extra work also where it fits in
 * time the server would otherwise spend waiting (for its clients, for a free core), and it moves
 * by 2–4 points between runs on this machine.
 */
function report(label: string, pairs: Pairs, how: string): void {
  const share = median(pairs.rates);
  const cpuShare = median(pairs.cpu);
  console.log(`  ${label}: ${median(pairs.on.map((r) => r.perSecond)).toFixed(0)} req/s audited, ${median(pairs.off.map((r) => r.perSecond)).toFixed(0)} not: ${share.toFixed(1)} % ${share >= 95 ? '✔' : '✘'} `
    + `(target ≥ 95 %); CPU per request ${median(pairs.on.map((r) => r.cpuMs)).toFixed(3)} / ${median(pairs.off.map((r) => r.cpuMs)).toFixed(3)} ms: ${cpuShare.toFixed(1)} % `
    + `(medians of ${how}; load ${loadavg()[0]!.toFixed(1)})`);
}

/** A real server (`npm start`'s bundle and flags) on a fresh SQLite file, signed in, with a project to post keys to. */
interface KeyServer { child: ChildProcess; tmp: string; keysUrl: string; cookie: string; serial: number }

async function startKeyServer(audited: boolean): Promise<KeyServer> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-audit-http-'));
  const port = await freePort();
  const child = startServer(tmp, port, undefined, undefined, { SIGNALBOX_AUDIT_ENABLED: String(audited) });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(base, child);
  const cookie = await signInOver(base);
  return { child, tmp, keysUrl: `${base}/api/project/${await createProject(base, cookie)}/keys`, cookie, serial: 0 };
}

/**
 * HTTP_CLIENTS keep-alive clients posting keys to `server` for `seconds`: the rate, and the
 * server process's CPU time per key (what the exporter moves meanwhile included).
 */
async function postKeysFor(server: KeyServer, seconds: number): Promise<Rate> {
  const until = performance.now() + seconds * 1000;
  const headers = { cookie: server.cookie, 'content-type': 'application/json' };
  let posted = 0;
  const client = async () => {
    while (performance.now() < until) {
      const res = await fetch(server.keysUrl, { method: 'POST', headers, body: JSON.stringify({ name: `key-${++server.serial}`, type: 'none' }) });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`POST keys over HTTP: ${res.status}`);
      posted++;
    }
  };
  const started = performance.now();
  const cpuBefore = cpuMsOf(server.child.pid!);
  await Promise.all(Array.from({ length: HTTP_CLIENTS }, client));
  return { perSecond: posted / ((performance.now() - started) / 1000), cpuMs: (cpuMsOf(server.child.pid!) - cpuBefore) / posted };
}

/**
 * Keys over HTTP. Half the pairs are measured with the audited server started first and half
 * with it started second: with neither server auditing (BENCH_AUDIT_HTTP_CONTROL=1), the server
 * started first measured 1–5 % more CPU per key than its twin, whatever it ran.
 */
async function writeCostOverHttp(): Promise<void> {
  const control = process.env.BENCH_AUDIT_HTTP_CONTROL === '1';
  const keys = new Pairs();
  for (const auditedFirst of [true, false]) await measureOverHttp(keys, auditedFirst, control, HTTP_ROUNDS / 2);
  const label = control ? 'POST /api/project/{id}/keys over HTTP, neither server auditing (control)' : 'POST /api/project/{id}/keys over HTTP';
  report(label, keys, `${HTTP_ROUNDS} back-to-back pairs of ${HTTP_PHASE_SECONDS} s, ${HTTP_CLIENTS} clients, each server started first for half`);
}

async function measureOverHttp(keys: Pairs, auditedFirst: boolean, control: boolean, rounds: number): Promise<void> {
  const first = await startKeyServer(auditedFirst && !control);
  const second = await startKeyServer(!auditedFirst && !control);
  const servers = auditedFirst ? { on: first, off: second } : { on: second, off: first };
  try {
    for (const server of [first, second]) await postKeysFor(server, HTTP_PHASE_SECONDS); // warm-up
    for (let round = 0; round < rounds; round++) {
      const measured: Partial<Record<'on' | 'off', Rate>> = {};
      for (const mode of (round % 2 ? ['off', 'on'] : ['on', 'off']) as ('on' | 'off')[]) measured[mode] = await postKeysFor(servers[mode], HTTP_PHASE_SECONDS);
      keys.add(measured.on!, measured.off!);
    }
  } finally {
    for (const server of [first, second]) {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
      rmSync(server.tmp, { recursive: true, force: true });
    }
  }
}

async function exportMemory(api: Api, deps: Deps): Promise<void> {
  const created = new Date().toISOString();
  const BATCH = 1000;
  for (let start = 0; start < ROWS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, ROWS - start) }, (_, i) => ({
      created, action: i % 7 ? 'update' : 'login_fail', actor_user_id: 1, actor_name: 'admin', client_ip: '10.0.0.1',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) bench', project_id: 1, project_name: 'Bench', object_type: 'template',
      object_id: start + i, object_name: `template number ${start + i}`, fields: 'name,playbook', description: '', request: 'PUT /api/project/:project_id/templates/:template_id', seq: null,
    }));
    await deps.db.insertInto('audit').values(rows).execute();
  }
  const cookie = await signIn(api);
  collectGarbage();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const started = performance.now();
  const res = await api.request('/api/audit/export?format=csv', { headers: { cookie } });
  const reader = res.body!.getReader();
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (const byte of value) if (byte === 10) lines++;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const seconds = (performance.now() - started) / 1000;
  console.log(`  CSV export of ${(lines - 1).toLocaleString('en')} rows: ${seconds.toFixed(1)} s, ${mb(bytes)}; peak RSS increase ${mb(peak - before)} over a collected heap (target ≤ 30 MB)`);
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await runAuditBench();
