/**
 * What a page's in-process runner API calls cost the server, with and without the object
 * handover (src/server/http/object-handover.ts):
 * `bash scripts/with-node.sh node bench/in-process-calls.ts` (BENCH_CALLS_PAGES, 3000).
 * The API (no HTTP server, no console) on a fresh SQLite database with HISTORY_TASKS tasks;
 * a "page" is the six GETs the history page makes (user, options, projects, role, 20 tasks by
 * cursor, templates), as the console makes them: `runnerApi(path)` then `res.json()` (JSON
 * written as text into a Response and parsed back), against `runnerApi.read(path)` (the
 * routes' objects handed over). The two alternate page by page, so a busy machine slows both
 * alike; it prints the CPU time (process.cpuUsage) per page of each: 25th percentile, median, mean.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/server/config/config.ts';
import { boot } from '../src/server/boot.ts';
import { createApi } from '../src/server/app.ts';
import { createRunnerApi } from '../src/server/host/runner-api-client.ts';
import { HISTORY_TASKS, insertHistory } from './load.ts';

const PAGES = Number(process.env.BENCH_CALLS_PAGES ?? 3000);
const PASSWORD = 'bench-password-1';

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-calls-'));
  const config = loadConfig({
    SEMAPHORE_ADMIN: 'admin', SEMAPHORE_ADMIN_PASSWORD: PASSWORD, SEMAPHORE_ADMIN_NAME: 'Admin', SEMAPHORE_ADMIN_EMAIL: 'admin@example.test',
    SEMAPHORE_TMP_PATH: join(tmp, 'work'),
  });
  config.db = { dialect: 'sqlite', host: join(tmp, 'db.sqlite') };
  const deps = await boot(config, () => {});
  try {
    const api = createApi(deps);
    const json = { 'content-type': 'application/json' };
    const login = await api.request('/api/auth/login', { method: 'POST', headers: json, body: JSON.stringify({ auth: 'admin', password: PASSWORD }) });
    if (login.status !== 204) throw new Error(`sign-in answered ${login.status}`);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const created = await api.request('/api/projects', { method: 'POST', headers: { ...json, cookie }, body: JSON.stringify({ name: 'Load', demo: true }) });
    const projectId = ((await created.json()) as { id: number }).id;
    await insertHistory(join(tmp, 'db.sqlite'), projectId, HISTORY_TASKS);

    const paths = ['/api/user', '/api/user/options', '/api/projects', `/api/project/${projectId}/role`,
      `/api/project/${projectId}/tasks?before_id=0&limit=20`, `/api/project/${projectId}/templates`];
    const headers = { cookie, 'user-agent': 'Mozilla/5.0 (bench)' };
    const client = { address: '127.0.0.1', https: false };
    const ways: Record<string, () => Promise<void>> = {
      'as text (runnerApi + res.json())': async () => {
        const page = createRunnerApi(api, '', client);
        for (const path of paths) {
          const res = await page(path, { headers });
          if (!res.ok) throw new Error(`${path}: ${res.status}`);
          await res.json();
        }
      },
      'handed over (runnerApi.read)': async () => {
        const page = createRunnerApi(api, '', client);
        for (const path of paths) if (!(await page.read(path, { headers })).ok) throw new Error(path);
      },
    };
    const names = Object.keys(ways);
    for (let i = 0; i < 200; i++) for (const name of names) await ways[name]!();
    const cpu = new Map(names.map((name) => [name, [] as number[]]));
    for (let i = 0; i < PAGES; i++) {
      for (const name of i % 2 ? names : [...names].reverse()) {
        const before = process.cpuUsage();
        await ways[name]!();
        const used = process.cpuUsage(before);
        cpu.get(name)!.push(used.user + used.system);
      }
    }
    console.log(`in-process API calls of a history page (${paths.length} GETs), CPU per page over ${PAGES} pages each:`);
    for (const [name, list] of cpu) {
      list.sort((a, b) => a - b);
      const at = (p: number) => (list[Math.floor(list.length * p)]! / 1000).toFixed(2);
      console.log(`  ${name.padEnd(34)} p25 ${at(0.25)} ms, median ${at(0.5)} ms, mean ${(list.reduce((a, b) => a + b) / list.length / 1000).toFixed(2)} ms`);
    }
  } finally {
    await deps.db.destroy();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
