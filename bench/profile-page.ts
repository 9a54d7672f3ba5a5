/**
 * Where a page's server time goes: `bash scripts/with-node.sh node bench/profile-page.ts [page]`
 * (page: history (default), templates, 404, or an API path such as /api/user) starts the server
 * as bench/load.ts does, with the inspector on a loopback port, serves the page to 50 clients
 * for a 3 s warm-up, then profiles the server's CPU (V8's profiler, through the inspector) while
 * it serves the page BENCH_PROFILE_SECONDS (8) more, and prints the profile's self time: by
 * part (Astro, Hono, Kysely, SQLite, zlib, GC…) and the costliest functions. With
 * BENCH_PROFILE_OUT=file.cpuprofile the profile is kept (open it in Chrome's DevTools).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import WebSocket from 'ws';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createProject, freePort, hammer, HISTORY_TASKS, insertHistory, measureCpuOf, signIn, START_FLAGS, startServer, waitUntilUp,
} from './load.ts';

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 8);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the program a frame belongs to, from its script's URL. */
function partOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName || '(anonymous)'}`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').split('/').slice(0, 2).join('/');
  if (url.includes('/dist/server/')) return 'console (Astro bundle)';
  if (url.includes('/dist/signalbox/')) return 'server bundle';
  return url.replace(/^file:\/\//, '');
}

/** Self time per part and per function, as shares of the whole profile. */
export function summarise(profile: Profile): { parts: [string, number][]; functions: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0) - (self.get(profile.nodes.find((n) => n.callFrame.functionName === '(idle)')?.id ?? -1) ?? 0);
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const part = partOf(frame);
    parts.set(part, (parts.get(part) ?? 0) + micros);
    const name = `${frame.functionName || '(anonymous)'} ${part}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const shares = (m: Map<string, number>) => [...m].map(([k, v]) => [k, v / total] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { parts: shares(parts), functions: shares(functions) };
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'history';
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-profile-'));
  const port = await freePort();
  const inspectorPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(tmp, port, `${START_FLAGS} --inspect=127.0.0.1:${inspectorPort}`);
  measureCpuOf(server.pid!);
  let profile: Profile;
  try {
    await waitUntilUp(base, server);
    const cookie = await signIn(base);
    const projectId = await createProject(base, cookie);
    await insertHistory(join(tmp, 'db.sqlite'), projectId, HISTORY_TASKS);
    const paths: Record<string, [string, number]> = {
      history: [`/project/${projectId}/history`, 200], templates: [`/project/${projectId}/templates`, 200], 404: ['/no-such-page', 404],
    };
    const [path, status] = paths[which] ?? [which.replace('{id}', String(projectId)), 200];
    await hammer(`${base}${path}`, cookie, 3, status);
    const profiler = await connectProfiler(inspectorPort);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.start');
    const served = await hammer(`${base}${path}`, cookie, SECONDS, status);
    profile = ((await profiler.send('Profiler.stop')) as { profile: Profile }).profile;
    profiler.close();
    const load = loadavg()[0]!.toFixed(1);
    console.log(`${path}: ${Math.round(served.requests / served.seconds)} req/s, server CPU ${(served.cpuMs / served.requests).toFixed(2)} ms a request (load average ${load})`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  rmSync(tmp, { recursive: true, force: true });
  if (process.env.BENCH_PROFILE_OUT) writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));
  const { parts, functions } = summarise(profile);
  const pct = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;
  console.log('self time by part (idle left out):');
  for (const [part, share] of parts.slice(0, 15)) console.log(`  ${pct(share)}  ${part}`);
  console.log('costliest functions:');
  for (const [name, share] of functions.slice(0, 20)) console.log(`  ${pct(share)}  ${name}`);
}

/** A connection to the server's inspector that sends a command and answers its result. */
async function connectProfiler(port: number): Promise<{ send: (method: string) => Promise<unknown>; close: () => void }> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  let next = 0;
  return {
    send: (method) => new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method }));
    }),
    close: () => socket.close(),
  };
}

if (import.meta.main) await main();
