import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Permission, ROLE_PERMISSIONS, hasPermission } from '../../src/server/access/permissions.ts';
import type { Db } from '../../src/server/db/database.ts';
import { DIALECTS } from './dialects.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { buildWorld, CALLERS, type Caller, type World, type WorldUser } from './world.ts';

/**
 * One route of the permission matrix.
 * - `route`: "METHOD /api/path/{param}" — the method is taken from here, the rest is the label;
 * - `path`/`body`: build the request against a fresh world (see world.ts) for one caller;
 *   `self` is the user the caller acts as (the owner for `bearer`, undefined for `anonymous`);
 * - `setup` (optional): inserts what the route needs into the world's project (e.g. with
 *   tests/support/fixtures.ts) before each request and returns ids handed to `path`/`body`;
 * - `expect`: the status every caller must get.
 * @example
 * { route: 'DELETE /api/project/{id}/keys/{key}', setup: async (db, w) => ({ key: await insertKey(db, w.projectId) }),
 *   path: (w, _self, ids) => `/api/project/${w.projectId}/keys/${ids.key}`, expect: projectWrite(Permission.ManageResources, 204) }
 */
export interface MatrixRow {
  route: string;
  setup?: (db: Db, w: World) => Promise<Record<string, number>>;
  path: (w: World, self: WorldUser | undefined, ids: Record<string, number>) => string;
  body?: (w: World, self: WorldUser | undefined, ids: Record<string, number>) => unknown;
  expect: Record<Caller, number>;
}

/** Every caller gets `status`; no session needed. */
export function publicRoute(status: number): Record<Caller, number> {
  return Object.fromEntries(CALLERS.map((c) => [c, status])) as Record<Caller, number>;
}

/** Every signed-in caller gets `status`; anonymous gets 401. */
export function signedIn(status: number): Record<Caller, number> {
  return { ...publicRoute(status), anonymous: 401 };
}

/** Admins get `status`; other signed-in callers get `denied` (Semaphore uses 401 or 403). */
export function adminOnly(status: number, denied: 401 | 403): Record<Caller, number> {
  return { ...publicRoute(denied), admin: status };
}

/** A project route: any member (and an admin) passes; non-members 404; anonymous 401. */
export function projectRead(status = 200): Record<Caller, number> {
  return { ...signedIn(status), non_member: 404 };
}

/** A project write route that needs `bits`: roles lacking them get 403; admins pass. */
export function projectWrite(bits: number, status: number): Record<Caller, number> {
  const byRole = (role: keyof typeof ROLE_PERMISSIONS) => (hasPermission(ROLE_PERMISSIONS[role], bits) ? status : 403);
  return {
    admin: status, owner: byRole('owner'), manager: byRole('manager'), task_runner: byRole('task_runner'), guest: byRole('guest'),
    non_member: 404, anonymous: 401, bearer: byRole('owner'),
  };
}

export { Permission };

/** Tables a refused request must leave alone (sessions and login attempts may move). */
const GUARDED_TABLES = [
  'user', 'api_token', 'board_token', 'project', 'project_user', 'event', 'access_key', 'repository', 'inventory', 'environment', 'template',
  'template_vault', 'template_inventory', 'view', 'schedule', 'integration', 'integration_matcher', 'integration_extract_value',
  'integration_alias', 'integration_delivery', 'task', 'option', 'runner', 'project_invite',
  'integration_alias', 'integration_delivery', 'task', 'option', 'runner', 'secret_storage', 'project_role',
] as const;

/** Every guarded table's row count, in one statement (a query per table made 60 a caller). */
async function countGuardedRows(db: Db): Promise<Record<string, number>> {
  const tables = [...new Set(GUARDED_TABLES)];
  const counts = sql.join(tables.map((table) => sql`(select count(*) from ${sql.table(table)}) as ${sql.ref(table)}`));
  const { rows: [row] } = await sql<Record<string, number | string>>`select ${counts}`.execute(db);
  return Object.fromEntries(tables.map((table) => [table, Number(row![table])]));
}

/**
 * Sends every row's request as every caller, each against a fresh world, and compares all
 * statuses of the row at once so a failure shows the whole line of the matrix. A refused
 * request (401/403/404) must also change no row, and a 403 has an empty body, as in Semaphore.
 * @example for (const row of rows) it(row.route, () => checkMatrixRow(server, row));
 */
export async function checkMatrixRow(s: TestServer, row: MatrixRow): Promise<void> {
  const method = row.route.split(' ')[0]!;
  const actual = {} as Record<Caller, number>;
  const sideEffects: string[] = [];
  for (const caller of CALLERS) {
    const w = await buildWorld(s.deps.db);
    const self = w.self(caller);
    const ids = (await row.setup?.(s.deps.db, w)) ?? {};
    const before = await countGuardedRows(s.deps.db);
    const res = await s.call(method, row.path(w, self, ids), row.body?.(w, self, ids), w.auth[caller]);
    actual[caller] = res.status;
    if ([401, 403, 404].includes(res.status)) {
      const after = await countGuardedRows(s.deps.db);
      const changed = GUARDED_TABLES.filter((t) => after[t] !== before[t]);
      if (changed.length) sideEffects.push(`${caller} got ${res.status} but changed ${changed.join(', ')}`);
      if (res.status === 403 && res.text !== '') sideEffects.push(`${caller} got 403 with body ${res.text.slice(0, 80)}`);
    }
  }
  expect(actual, row.route).toEqual(row.expect);
  expect(sideEffects, row.route).toEqual([]);
}

/**
 * Declares one test per row, for every dialect, on a server shared by the rows (started with
 * `env` added to its settings).
 * @example describeMatrix('keys and repositories', RESOURCE_MATRIX);
 */
export function describeMatrix(area: string, rows: MatrixRow[], env: Record<string, string> = {}): void {
  for (const dialect of DIALECTS) {
    describe(`permission matrix: ${area} (${dialect})`, () => {
      let s: TestServer;
      beforeAll(async () => { s = await startTestServer(dialect, env); });
      afterAll(async () => { await s.close(); });
      for (const row of rows) {
        it(`answers ${row.route} with the expected status for every caller`, () => checkMatrixRow(s, row));
      }
    });
  }
}
