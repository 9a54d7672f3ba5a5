/**
 * This checkout's build against another's, side by side on the same machine:
 * `BENCH_AB_OTHER=/path/to/other/checkout bash scripts/with-node.sh node bench/ab-build.ts [page…]`
 * (pages as in bench/profile-page.ts: history (default), templates, 404, or an API path with
 * `{id}` for the project). Both servers start as bench/load.ts starts one (each checkout's own
 * bundle, its own fresh SQLite database with the same HISTORY_TASKS tasks), every page is
 * warmed up on both, then each page is served to the same 50 clients in BENCH_AB_ROUNDS (10)
 * rounds of one 1.5 s phase per server, the order swapped every round, and the server's CPU
 * time per request (from /proc) of every phase is kept. It prints the median of each side and
 * their ratio: a busy shared machine moves both sides alike, so the ratio holds where the
 * absolute figures do not. Also each server's RSS once started (idle) and at the end. The
 * server started second has come out dearer by up to ~18 % on some URLs in A/A runs (a
 * checkout against itself): run it both ways (BENCH_AB_FIRST=this) and compare both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createProject, freePort, hammer, HISTORY_TASKS, insertHistory, measureCpuOf, rssOf, signIn, startServer, waitUntilUp } from './load.ts';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 10);
const PHASE_SECONDS = 1.5;

interface Side {
  name: string;
  server: ChildProcess;
  tmp: string;
  base: string;
  cookie: string;
  projectId: number;
  idleRss: number;
  cpuPerRequest: Map<string, number[]>;
}

async function startSide(name: string, root: string | undefined): Promise<Side> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-ab-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(tmp, port, undefined, root);
  await waitUntilUp(base, server);
  const cookie = await signIn(base);
  const projectId = await createProject(base, cookie);
  await insertHistory(join(tmp, 'db.sqlite'), projectId, HISTORY_TASKS);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return { name, server, tmp, base, cookie, projectId, idleRss: rssOf(server.pid!), cpuPerRequest: new Map() };
}

function pathOf(which: string, projectId: number): [string, number] {
  const paths: Record<string, [string, number]> = {
    history: [`/project/${projectId}/history`, 200], templates: [`/project/${projectId}/templates`, 200], 404: ['/no-such-page', 404],
  };
  return paths[which] ?? [which.replace('{id}', String(projectId)), 200];
}

async function phase(side: Side, which: string, seconds: number): Promise<number> {
  const [path, status] = pathOf(which, side.projectId);
  measureCpuOf(side.server.pid!);
  const served = await hammer(side.base + path, side.cookie, seconds, status);
  if (served.failed) throw new Error(`${side.name} ${path}: ${served.failed} requests failed`);
  return served.cpuMs / served.requests;
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const other = process.env.BENCH_AB_OTHER;
  if (!other) throw new Error('set BENCH_AB_OTHER to the other checkout (built with scripts/install.sh)');
  const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['history'];
  const loadBefore = loadavg()[0]!;
  // BENCH_AB_FIRST=this starts this checkout's server first: run both orders, since an A/A run
  // (a checkout against itself) showed the second server up to ~18 % dearer on some URLs
  const thisFirst = process.env.BENCH_AB_FIRST === 'this';
  const started = thisFirst
    ? [await startSide('this checkout', undefined), await startSide(`other (${other})`, other)]
    : [await startSide(`other (${other})`, other), await startSide('this checkout', undefined)];
  const sides = thisFirst ? [started[1]!, started[0]!] : started;
  try {
    for (const which of pages) for (const side of sides) await phase(side, which, 3);
    for (let round = 0; round < ROUNDS; round++) {
      for (const which of pages) {
        for (const side of round % 2 ? [...sides].reverse() : sides) {
          const list = side.cpuPerRequest.get(which) ?? [];
          list.push(await phase(side, which, PHASE_SECONDS));
          side.cpuPerRequest.set(which, list);
        }
      }
    }
    const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
    console.log(`side by side, ${ROUNDS} rounds of ${PHASE_SECONDS} s phases, load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; server CPU per request, median of the phases:`);
    const [a, b] = sides as [Side, Side];
    for (const which of pages) {
      const [ma, mb2] = [median(a.cpuPerRequest.get(which)!), median(b.cpuPerRequest.get(which)!)];
      console.log(`  ${pathOf(which, 0)[0].padEnd(28)} other ${ma.toFixed(2)} ms, this ${mb2.toFixed(2)} ms: ${((mb2 / ma - 1) * 100).toFixed(0)} %`);
    }
    for (const side of sides) console.log(`  ${side.name}: idle RSS ${mb(side.idleRss)}, at the end ${mb(rssOf(side.server.pid!))}`);
  } finally {
    for (const side of sides) {
      side.server.kill('SIGTERM');
      await new Promise((resolve) => side.server.once('exit', resolve));
      rmSync(side.tmp, { recursive: true, force: true });
    }
  }
}

if (import.meta.main) await main();
