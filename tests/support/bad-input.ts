import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/server/db/database.ts';
import { DIALECTS } from './dialects.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { buildWorld, type World } from './world.ts';
import { insertProjectResources, type ResourceIds } from './resource-rows.ts';

/**
 * `number`: a non-negative integer column value or id; `signed`: an integer that may be negative;
 * `json`: JSON text, or an object the server serialises.
 */
export type FieldType = 'string' | 'number' | 'signed' | 'boolean' | 'object' | 'array' | 'json';

/** What a route's path and bodies are built from: a world and one of every resource in its project. */
export interface BadInputContext { w: World; ids: ResourceIds; /** ids the suite's own `prepare` inserted */ more: Record<string, number> }

/**
 * A write route and a body it accepts. `fields` gives each field's type, so every field gets
 * values of the wrong type; `maxLength` is a string field's limit (default 255), so it gets one
 * character more; `extra` adds bodies particular to the route.
 */
export interface WriteRoute {
  route: string;
  path: (x: BadInputContext) => string;
  valid: (x: BadInputContext) => Record<string, unknown>;
  fields: Record<string, FieldType>;
  maxLength?: Record<string, number>;
  /** why the body's keys are data, not field names (then no unknown field is added to it) */
  keysAreData?: string;
  extra?: (x: BadInputContext) => [string, unknown][];
}

const WRONG_VALUES: Record<FieldType, unknown[]> = {
  string: [12345, true, {}, [], 'a\u0000b'],
  number: ['12', true, 1.5, -3, {}, 1e20, 99_999_999_999],
  signed: ['12', true, 1.5, {}, 1e20],
  json: [12345, true, [], 'a\u0000b', '[1]'],
  boolean: ['yes', 1, null, {}],
  object: ['text', 1, [], true],
  array: ['text', 1, {}, [null]],
};

/** Numbers JSON can spell but no column holds (written raw: JSON.stringify cannot produce them). */
const HUGE_NUMBERS = ['1e999', '-1e999', '99999999999999999999999', '-99999999999999999999999'];
const DEEP = 10_000;

/** A value no stored row or response may contain: it travels only in an unknown field. */
const UNKNOWN_MARK = 'unknown-field-9f4c2e';

/**
 * The route's valid body as Semaphore's own web UI and other versions send it: with the path's
 * `project_id` and a field Signalbox does not know (issue 18: both are accepted and dropped).
 */
export function withForeignFields(r: WriteRoute, x: BadInputContext, body = r.valid(x)): Record<string, unknown> {
  if (r.keysAreData) return body;
  return { project_id: x.w.projectId, ...body, from_a_newer_version: UNKNOWN_MARK };
}

/** Malformed, ill-typed, deeply nested and oversized bodies for one route, each with a label. */
export function badBodies(r: WriteRoute, x: BadInputContext): [string, string][] {
  const valid = r.valid(x);
  const cases: [string, string][] = [
    ['an array nested 10,000 deep', '['.repeat(DEEP) + ']'.repeat(DEEP)],
    ['an object nested 10,000 deep', '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP)],
    ['truncated JSON', JSON.stringify(valid).slice(0, -3)],
    ['not JSON at all', 'name=x&role=owner'],
    ['a JSON array', '[]'],
    ['a JSON string', '"text"'],
    ['a JSON number', '123'],
    ['JSON true', 'true'],
    // (`null` is read as no fields, as Semaphore's binding reads it: the empty body's case, not a bad one)
  ];
  for (const [field, type] of Object.entries(r.fields)) {
    for (const wrong of WRONG_VALUES[type]) cases.push([`${field} = ${JSON.stringify(wrong)}`, JSON.stringify({ ...valid, [field]: wrong })]);
    if (type === 'number' || type === 'signed') {
      for (const huge of HUGE_NUMBERS) cases.push([`${field} = ${huge}`, JSON.stringify({ ...valid, [field]: 0 }).replace(`"${field}":0`, `"${field}":${huge}`)]);
    }
    const nested = '['.repeat(100) + ']'.repeat(100);
    cases.push([`${field} nested 100 deep`, JSON.stringify({ ...valid, [field]: 0 }).replace(`"${field}":0`, `"${field}":${nested}`)]);
    if (type === 'string' || type === 'json') {
      const length = (r.maxLength?.[field] ?? 255) + 1;
      cases.push([`${field} of ${length} characters`, JSON.stringify({ ...valid, [field]: 'x'.repeat(length) })]);
    }
  }
  for (const [label, body] of r.extra?.(x) ?? []) cases.push([label, typeof body === 'string' ? body : JSON.stringify(body)]);
  return cases;
}

/** Every row of every table, in a stable order, to prove a refused request changed nothing. */
export async function snapshotDatabase(db: Db): Promise<Record<string, string[]>> {
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((name) => !name.startsWith('kysely_')).sort();
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    // sessions move `last_active` on every signed-in call; that is not a change the request made
    out[table] = rows.rows.map((row) => JSON.stringify(table === 'session' ? { ...row, last_active: undefined } : row)).sort();
  }
  return out;
}

/** What a foreign page or a careless client may send instead of JSON ('' = no header at all). */
const WRONG_CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', ''];

/**
 * For every dialect: each route gets every bad body (4xx with `{"error"}`, never 500, database
 * unchanged), its valid body with wrong content types (415), each known field of a wrong type
 * beside unknown fields (400 naming the field), an 11 MB body (413), and finally its valid body
 * with `project_id` and an unknown field (2xx, and the unknown field's value is nowhere in the
 * database or the answer), so the bad cases fail for the reason they name.
 * `env` is added to the server's settings.
 * @example describeBadInput('keys', [{ route: 'POST /api/project/{id}/keys', ... }]);
 */
export function describeBadInput(area: string, routes: WriteRoute[], env: Record<string, string> = {}, prepare?: (db: Db, x: BadInputContext) => Promise<Record<string, number>>): void {
  for (const dialect of DIALECTS) {
    describe(`bad input to ${area} (${dialect})`, () => {
      let s: TestServer;
      let x: BadInputContext;
      beforeAll(async () => {
        s = await startTestServer(dialect, env);
        const w = await buildWorld(s.deps.db);
        x = { w, ids: await insertProjectResources(s.deps.db, w.projectId), more: {} };
        if (prepare) x.more = await prepare(s.deps.db, x);
      });
      afterAll(async () => { await s.close(); });

      for (const r of routes) {
        const method = r.route.split(' ')[0]!;
        it(`answers ${r.route} with 4xx and {"error"} for malformed, ill-typed and oversized input, changing nothing`, async () => {
          const before = await snapshotDatabase(s.deps.db);
          const failures: string[] = [];
          for (const [label, body] of badBodies(r, x)) {
            const res = await s.call(method, r.path(x), body, x.w.auth.admin);
            if (res.status < 400 || res.status >= 500 || typeof res.body?.error !== 'string') failures.push(`${label}: ${res.status} ${res.text.slice(0, 120)}`);
          }
          expect(failures).toEqual([]);
          expect(await snapshotDatabase(s.deps.db)).toEqual(before);
        });

        it(`answers ${r.route} with 415 for a valid body a browser sends as anything but application/json, changing nothing`, async () => {
          const before = await snapshotDatabase(s.deps.db);
          const body = new TextEncoder().encode(JSON.stringify(r.valid(x)));
          const failures: string[] = [];
          for (const type of WRONG_CONTENT_TYPES) {
            // a browser's request (Sec-Fetch-Site): from clients that are none, the label does not matter (content-type.test.ts)
            const headers: Record<string, string> = { ...x.w.auth.admin, 'sec-fetch-site': 'same-origin', ...(type ? { 'content-type': type } : {}) };
            const res = await s.api.request(r.path(x), { method, headers, body });
            if (res.status !== 415) failures.push(`${type || 'no Content-Type'}: ${res.status} ${(await res.text()).slice(0, 120)}`);
          }
          expect(failures).toEqual([]);
          expect(await snapshotDatabase(s.deps.db)).toEqual(before);
        });

        it(`answers ${r.route} with 400 naming a known field of a wrong type, even beside unknown fields`, async () => {
          const failures: string[] = [];
          for (const [field, type] of Object.entries(r.fields)) {
            const body = withForeignFields(r, x, { ...r.valid(x), [field]: WRONG_VALUES[type][0] });
            const res = await s.call(method, r.path(x), body, x.w.auth.admin);
            if (res.status !== 400 || !String(res.body?.error).includes(field)) failures.push(`${field}: ${res.status} ${res.text.slice(0, 120)}`);
          }
          expect(failures).toEqual([]);
        });

        it(`answers ${r.route} with 413 for an 11 MB body, changing nothing`, async () => {
          const before = await snapshotDatabase(s.deps.db);
          const huge = JSON.stringify({ ...r.valid(x), name: 'x'.repeat(11 * 1024 * 1024) });
          expect((await s.call(method, r.path(x), huge, x.w.auth.admin)).status).toBe(413);
          expect(await snapshotDatabase(s.deps.db)).toEqual(before);
        });
      }

      it('accepts the valid bodies with project_id and an unknown field, keeping no trace of it (so the cases above fail for the reason they name)', async () => {
        for (const r of routes) {
          const res = await s.call(r.route.split(' ')[0]!, r.path(x), withForeignFields(r, x), x.w.auth.admin);
          expect(res.status, `${r.route}: ${res.text}`).toBeLessThan(300);
          expect(res.text, r.route).not.toContain(UNKNOWN_MARK);
        }
        expect(JSON.stringify(await snapshotDatabase(s.deps.db))).not.toContain(UNKNOWN_MARK);
      });

      it('reads a JSON null in any field but a boolean as "not given", as Semaphore\'s decoder does, one field at a time and all at once', async () => {
        expect(await nullFieldProblems(s, routes, x)).toEqual([]);
      });
    });
  }
}

/**
 * Each non-boolean field of each route sent as `null` beside the rest of its valid body is read
 * as a value left out (accepted, or a 400 saying what is missing) or as "none" where the route
 * knows one (a view id), never refused for its type ("expected string, received null"); then
 * every field it accepted as null, all null in one body, is accepted too, or answered as when
 * they are all left out. Answers what went wrong, one line each.
 */
async function nullFieldProblems(s: TestServer, routes: WriteRoute[], x: BadInputContext): Promise<string[]> {
  const problems: string[] = [];
  for (const r of routes) {
    const send = (body: Record<string, unknown>) => s.call(r.route.split(' ')[0]!, r.path(x), withForeignFields(r, x, body), x.w.auth.admin);
    const accepted: string[] = [];
    for (const [field, type] of Object.entries(r.fields)) {
      if (type === 'boolean') continue;
      const res = await send({ ...r.valid(x), [field]: null });
      if (res.status < 300) accepted.push(field);
      else if (res.status !== 400 || /null|expected/i.test(String(res.body?.error))) problems.push(`${r.route} ${field} = null: ${res.status} ${res.text.slice(0, 120)}`);
    }
    const res = await send({ ...r.valid(x), ...Object.fromEntries(accepted.map((field) => [field, null])) });
    if (res.status < 300) continue;
    // fields optional alone may be needed together (an ansible template needs an inventory): left out, they answer the same
    const leftOut = await send(Object.fromEntries(Object.entries(r.valid(x)).filter(([field]) => !accepted.includes(field))));
    if (leftOut.text !== res.text) problems.push(`${r.route} with ${accepted.join(', ')} all null: ${res.status} ${res.text.slice(0, 120)}; left out: ${leftOut.status} ${leftOut.text.slice(0, 120)}`);
  }
  return problems;
}
