/**
 * Which brotli quality pays for responses compressed per request:
 * `bash scripts/with-node.sh node bench/compression.ts` starts the server as bench/load.ts does,
 * fetches the signed-in 404 page, the history page, the templates page and the history page's
 * JSON call uncompressed, and compresses each body with brotli qualities 0–6 and 11 and gzip
 * levels 1, 6 and 9 as src/server/http/compression.ts does (one synchronous call), printing the
 * bytes and the median CPU time of BENCH_COMPRESSION_RUNS (200) compressions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createProject, freePort, HISTORY_TASKS, insertHistory, signIn, startServer, waitUntilUp } from './load.ts';

const RUNS = Number(process.env.BENCH_COMPRESSION_RUNS ?? 200);

const CODECS: [string, (body: Buffer) => Buffer][] = [
  ...[0, 1, 2, 3, 4, 5, 6, 11].map((q): [string, (body: Buffer) => Buffer] => [`br ${q}`, (body) => brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
  })]),
  ...[1, 6, 9].map((level): [string, (body: Buffer) => Buffer] => [`gzip ${level}`, (body) => gzipSync(body, { level })]),
];

/** Median CPU time of compressing `body` RUNS times, in µs. */
function medianMicros(compress: (body: Buffer) => Buffer, body: Buffer): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const before = process.cpuUsage();
    compress(body);
    const used = process.cpuUsage(before);
    times.push(used.user + used.system);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-compression-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(tmp, port);
  const bodies: [string, Buffer][] = [];
  try {
    await waitUntilUp(base, server);
    const cookie = await signIn(base);
    const id = await createProject(base, cookie);
    await insertHistory(join(tmp, 'db.sqlite'), id, HISTORY_TASKS);
    for (const [name, path] of [['404 page', '/no-such-page'], ['history page', `/project/${id}/history`], ['templates page', `/project/${id}/templates`], ['tasks JSON (20)', `/api/project/${id}/tasks?offset=0&limit=20`]]) {
      const res = await fetch(`${base}${path}`, { headers: { cookie, 'accept-encoding': 'identity' } });
      bodies.push([name!, Buffer.from(await res.arrayBuffer())]);
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`compression of responses made per request (median CPU of ${RUNS} runs; bytes)`);
  console.log(`  ${'codec'.padEnd(8)}${bodies.map(([name, body]) => `${name} (${(body.byteLength / 1024).toFixed(1)} KB)`.padStart(26)).join('')}`);
  for (const [codec, compress] of CODECS) {
    const cells = bodies.map(([, body]) => `${medianMicros(compress, body)} µs ${(compress(body).byteLength / 1024).toFixed(2)} KB`.padStart(26));
    console.log(`  ${codec.padEnd(8)}${cells.join('')}`);
  }
}

if (import.meta.main) await main();
