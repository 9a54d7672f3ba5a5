import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../support/harness.ts';
import { buildFuzzWorld, FEW_HOSTILE_IDS, FUZZ_CALLERS, HOSTILE_IDS, PROTOTYPE_NAMES, type FuzzCaller, type FuzzWorld } from './support/fuzz.ts';

const API_DIR = fileURLToPath(new URL('../../src/server/api/', import.meta.url));

interface Operation { method: string; path: string; bodyFields: string[] | null }
interface Probe { caller: FuzzCaller; method: string; path: string; body?: string }

/** Every query parameter a route reads (`c.req.query('x')`), found in the route files. */
function queryNames(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(API_DIR)) {
    for (const m of readFileSync(API_DIR + file, 'utf8').matchAll(/req\.query\('([a-z_]+)'\)/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

/** Every operation of the API document, its body's top-level fields when it takes one. */
function operationsOf(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const ops = { ...item, ...(item['x-additionalOperations'] ?? {}) };
    delete ops['x-additionalOperations'];
    for (const [method, op] of Object.entries<any>(ops)) {
      let schema = op.requestBody?.content?.['application/json']?.schema;
      if (schema?.$ref) schema = doc.components.schemas[schema.$ref.split('/').pop()];
      out.push({ method: method.toUpperCase(), path, bodyFields: schema ? Object.keys(schema.properties ?? {}) : null });
    }
  }
  return out;
}

/** The path with each `{param}` filled from the world's ids, or by `override`. */
function fillPath(path: string, ids: Record<string, unknown>, override: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => override[name] ?? String(ids[name] ?? 1));
}

/** The bodies sent to an operation that takes one. */
function bodiesFor(op: Operation, all: boolean): string[] {
  const bodies = ['{}', 'null'];
  if (!all) return bodies;
  bodies.push('[]', '"constructor"', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}');
  for (const field of op.bodyFields ?? []) {
    for (const value of ['null', '{}', '[]', '"__proto__"', '"constructor"', '99999999999999999999']) bodies.push(`{"${field}":${value}}`);
  }
  return bodies;
}

/** Every request of the walk for one operation and caller. */
function probesFor(op: Operation, caller: FuzzCaller, ids: Record<string, unknown>, queries: string[]): Probe[] {
  const all = caller === 'admin';
  const probes: Probe[] = [];
  const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const takesBody = op.bodyFields !== null || ['POST', 'PUT', 'PATCH'].includes(op.method);
  const add = (path: string, body?: string) => probes.push({ caller, method: op.method, path, body });
  for (const body of takesBody ? bodiesFor(op, all) : [undefined]) add(fillPath(op.path, ids), body);
  for (const param of params) {
    for (const value of all ? HOSTILE_IDS : FEW_HOSTILE_IDS) add(fillPath(op.path, ids, { [param]: value }), takesBody ? '{}' : undefined);
  }
  const hostileQuery = queries.map((q, i) => `${q}=${PROTOTYPE_NAMES[i % PROTOTYPE_NAMES.length]}`).join('&');
  add(`${fillPath(op.path, ids)}?${hostileQuery}`, takesBody ? '{}' : undefined);
  if (all) {
    for (const value of ['99999999999999999999', '-1', 'x'.repeat(300), '']) {
      add(`${fillPath(op.path, ids)}?${queries.map((q) => `${q}=${value}`).join('&')}`, takesBody ? '{}' : undefined);
    }
  }
  return probes;
}

describe('fuzzing every API operation as every role (sqlite): nothing answers 5xx', () => {
  let s: TestServer;
  let fuzz: FuzzWorld;
  let operations: Operation[];
  beforeAll(async () => {
    s = await startTestServer('sqlite');
    fuzz = await buildFuzzWorld(s);
    operations = operationsOf((await s.call('GET', '/api/openapi.json')).body);
  });
  afterAll(async () => { await s?.close(); });

  it('walks the whole API document with prototype names, empty objects, nulls and over-long ids', async () => {
    const ids = { ...fuzz.world.ids, user_id: fuzz.world.ids.user_id, alias: 'fuzzalias', app: 'bash', app_id: 'bash', id: 1 };
    const queries = queryNames();
    // deletions last, deepest first, so they do not take away what the other requests need
    const depth = (op: Operation) => op.path.split('/').length;
    const ordered = [...operations.filter((op) => op.method !== 'DELETE'), ...operations.filter((op) => op.method === 'DELETE').sort((a, b) => depth(b) - depth(a))];
    const failures: string[] = [];
    let sent = 0;
    for (const op of ordered) {
      for (const caller of FUZZ_CALLERS) {
        for (const probe of probesFor(op, caller, ids, queries)) {
          const headers: Record<string, string> = { ...(await fuzz.auth(caller)) };
          if (probe.body !== undefined) headers['content-type'] = 'application/json';
          const res = await s.api.request(probe.path, { method: probe.method, headers, body: probe.body });
          const text = await res.text();
          sent++;
          if (res.status >= 500) failures.push(`${caller} ${probe.method} ${probe.path} ${probe.body ?? ''} → ${res.status} ${text.slice(0, 200)}`);
        }
      }
    }
    expect(operations.length).toBeGreaterThan(100);
    expect(failures, `${sent} requests`).toEqual([]);
    // thousands of requests: minutes on a busy 2-core machine, seconds when it is free
  }, 300_000);
});
