/**
 * Parse cost (issue 45, item 2): the real server started as its own process (SQLite, a fresh
 * temp folder); the 9.5 MB JSON body of 800,000 small keys is sent once to every route
 * that takes a body without a session, while `GET /api/ping` is sent every 50 ms on another
 * connection. Printed per route: the answer and how long it took, the slowest ping meanwhile
 * (target ≤ 100 ms) and its ratio to the slowest ping of an idle stretch just as long (the
 * ratio holds better than the milliseconds on a busy machine, whose load average is printed).
 * Alone: `bash scripts/with-node.sh node bench/parse-cost.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { freePort, startServer, waitUntilUp } from './load.ts';

const PING_EVERY_MS = 50;
const TARGET_MS = 100;

/** The routes that read a body before (or without) a session. */
const ROUTES: [string, string][] = [
  ['POST', '/api/auth/login'], ['POST', '/api/auth/verify'], ['POST', '/api/auth/recovery'], ['POST', '/api/auth/logout'],
  ['POST', '/api/internal/runners'], ['PUT', '/api/internal/runners'], ['DELETE', '/api/internal/runners'],
  ['POST', '/api/integrations/no-such-alias'], ['POST', '/api/terraform/no-such-alias'],
];

function manyKeys(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`"k${i}":1`);
  return `{${parts.join(',')}}`;
}

/** Pings every 50 ms until `stop` resolves; the slowest answer in ms. */
async function slowestPing(base: string, stop: Promise<unknown>): Promise<number> {
  let done = false;
  void stop.finally(() => { done = true; });
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    await fetch(`${base}/api/ping`).then((res) => res.text());
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
  }
  return slowest;
}

/** The sender runs in a worker thread, so writing 9.5 MB never delays this thread's pings. */
const SENDER = `
const { workerData: { url, method, body }, parentPort } = require('node:worker_threads');
fetch(url, { method, headers: { 'content-type': 'application/json' }, body })
  .then(async (res) => { await res.arrayBuffer(); parentPort.postMessage(String(res.status)); })
  .catch((err) => parentPort.postMessage('closed (' + ((err.cause && err.cause.message) || err.message) + ')'));
`;

/** Sends the body; the status, or how the connection ended when the server refused without reading it. */
function send(base: string, method: string, path: string, body: string): Promise<string> {
  const worker = new Worker(SENDER, { eval: true, workerData: { url: base + path, method, body } });
  return new Promise<string>((resolve) => worker.once('message', resolve)).finally(() => worker.terminate());
}

export async function runParseCostBench(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-parse-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(tmp, port);
  const body = manyKeys(800_000);
  console.log(`Parse cost: ${(body.length / 1e6).toFixed(1)} MB of 800,000 keys per route, /api/ping every ${PING_EVERY_MS} ms (load average ${loadavg()[0]!.toFixed(1)})`);
  try {
    await waitUntilUp(base, server);
    for (const [method, path] of ROUTES) {
      const started = performance.now();
      const answer = send(base, method, path, body);
      const slowest = await slowestPing(base, answer);
      const took = performance.now() - started;
      const idle = await slowestPing(base, new Promise((resolve) => setTimeout(resolve, Math.max(took, 500))));
      const mark = slowest <= TARGET_MS ? '✔' : '✘';
      console.log(`  ${method} ${path}: ${await answer} in ${took.toFixed(0)} ms; slowest ping ${slowest.toFixed(0)} ms (target ≤ ${TARGET_MS} ms) ${mark}, ${(slowest / idle).toFixed(1)}× the idle ${idle.toFixed(0)} ms`);
    }
  } finally {
    server.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await runParseCostBench();
