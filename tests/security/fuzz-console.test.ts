import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { createApi } from '../../src/server/app.ts';
import type { TestServer } from '../support/harness.ts';
import { ADMIN } from '../support/harness.ts';
import { buildFuzzWorld, FEW_HOSTILE_IDS, FUZZ_CALLERS, HOSTILE_IDS, PROTOTYPE_NAMES, type FuzzCaller, type FuzzWorld } from './support/fuzz.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Console routes from src/pages (`/project/[id]/templates/[tid]`), partials (`_X.astro`) and the 500 page left out. */
function consoleRoutes(): string[] {
  return filesUnder(SRC + 'pages')
    .map((file) => relative(SRC + 'pages', file))
    // the 500 page answers 500 by design
    .filter((file) => /\.(astro|ts)$/.test(file) && !/(^|\/)_/.test(file) && file !== '500.astro')
    .map((file) => '/' + file.replace(/\.(astro|ts)$/, '').replace(/(^|\/)index$/, ''))
    .map((route) => route.replace(/\[\.\.\.[a-z]+\]/, 'x/y'));
}

/** Every query parameter the console reads (`searchParams.get('x')`). */
function consoleQueryNames(): string[] {
  const names = new Set<string>();
  for (const dir of ['pages', 'console', 'layouts', 'components']) {
    for (const file of filesUnder(SRC + dir)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/searchParams\.get\('([a-z_]+)'\)/g)) names.add(m[1]!);
    }
  }
  return [...names].sort();
}

interface Probe { caller: FuzzCaller; method: 'GET' | 'POST'; path: string; form?: Record<string, string> }

describe('fuzzing every console page as every role (built console, real HTTP): nothing answers 5xx', () => {
  let server: ConsoleServer;
  let fuzz: FuzzWorld;
  beforeAll(async () => {
    server = await startConsoleServer();
    // the world is made through the runner API in this process, on the console's database
    const api = createApi(server.deps);
    const call: TestServer['call'] = async (method, path, body, auth = {}) => {
      const res = await api.request(path, { method, headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
    };
    const login: TestServer['login'] = async (name, password) => {
      const res = await api.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: name, password }) });
      return { cookie: res.headers.get('set-cookie')!.split(';')[0]! };
    };
    fuzz = await buildFuzzWorld({ deps: server.deps, call, login });
    expect(ADMIN.login).toBeTruthy();
  });
  afterAll(async () => { await server?.close(); });

  it('walks every page with prototype names, over-long ids and hostile query and form values', async () => {
    const { ids } = fuzz.world;
    const values: Record<string, string> = {
      id: String(ids.project_id), iid: String(ids.integration_id), tid: String(ids.template_id), vid: String(ids.view_id), wid: String(ids.workflow_id), rid: String(ids.run_id),
    };
    const routes = consoleRoutes();
    const queries = consoleQueryNames();
    const hostileQuery = (value: (i: number) => string) => queries.map((q, i) => `${q}=${encodeURIComponent(value(i))}`).join('&');
    const probes: Probe[] = [];
    for (const caller of FUZZ_CALLERS) {
      const all = caller === 'admin';
      for (const route of routes) {
        const own = route.startsWith('/users/') ? { id: String(fuzz.userIds.manager) } : route.startsWith('/apps/') ? { id: 'bash' } : {};
        const fill = (override: Record<string, string> = {}) => route.replace(/\[([a-z]+)\]/g, (_, name: string) => override[name] ?? (own as Record<string, string>)[name] ?? values[name] ?? '1');
        const params = [...route.matchAll(/\[([a-z]+)\]/g)].map((m) => m[1]!);
        probes.push({ caller, method: 'GET', path: fill() });
        for (const param of params) for (const value of all ? HOSTILE_IDS : FEW_HOSTILE_IDS) probes.push({ caller, method: 'GET', path: fill({ [param]: value }) });
        probes.push({ caller, method: 'GET', path: `${fill()}?${hostileQuery((i) => PROTOTYPE_NAMES[i % PROTOTYPE_NAMES.length]!)}` });
        if (!all) continue;
        probes.push({ caller, method: 'GET', path: `${fill()}?${hostileQuery(() => '99999999999999999999')}` });
        for (const name of PROTOTYPE_NAMES) {
          probes.push({ caller, method: 'POST', path: fill(), form: { _form: name, action: name, name, id: '99999999999999999999', task: name, [name]: name } });
        }
      }
    }
    const failures: string[] = [];
    for (const probe of probes) {
      const headers: Record<string, string> = { ...(await fuzz.auth(probe.caller)), 'accept-language': 'en' };
      let body: string | undefined;
      if (probe.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(probe.form).toString();
      }
      // a page that fails after its answer began drops the connection: that counts as a 5xx
      const [status, text] = await fetch(server.url + probe.path, { method: probe.method, headers, body, redirect: 'manual' })
        .then(async (res) => [res.status, await res.text()] as const)
        .catch((err: Error) => [599, `connection dropped: ${err.message}`] as const);
      if (status >= 500) failures.push(`${probe.caller} ${probe.method} ${probe.path} ${body ?? ''} → ${status} ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
    }
    expect(routes.length).toBeGreaterThan(30);
    expect(failures, `${probes.length} requests`).toEqual([]);
    // thousands of requests: minutes on a busy 2-core machine, seconds when it is free
  }, 300_000);
});
