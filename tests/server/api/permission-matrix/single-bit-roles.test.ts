import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Permission, PERMISSION_NAMES, effectivePermissions, hasPermission } from '../../../../src/server/access/permissions.ts';
import { ROUTE_PERMISSIONS, routePermission } from '../../../../src/server/access/route-permissions.ts';
import type { Db } from '../../../../src/server/db/database.ts';
import { now } from '../../../../src/server/lib/time.ts';
import { DIALECTS } from '../../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../../support/harness.ts';
import { mountedRoutes, routePattern } from '../../../support/route-table.ts';
import { buildWorld, type World } from '../../../support/world.ts';
import type { MatrixRow } from '../../../support/permission-matrix.ts';
import { ALL_MATRIX_ROWS } from './all.rows.ts';

// Generated from the route table (access/route-permissions.ts): for every guarded project route
// with a matrix row, and for every custom role made of one permission bit, the member holding
// that role is allowed (no 403) exactly when the bit, with the parts it includes, holds the bit
// the table names; otherwise refused with an empty 403 that changes nothing.

const MOUNTED = mountedRoutes();

/** The mounted route a matrix label stands for. */
function mountedRouteOf(label: string): string | undefined {
  return MOUNTED.find((route) => routePattern(route).test(label));
}

const GUARDED_ROWS = ALL_MATRIX_ROWS.flatMap((row) => {
  const route = mountedRouteOf(row.route);
  const needed = route ? routePermission(route) : 0;
  return needed ? [{ row, needed }] : [];
});

/** Makes the world's guest hold a custom role of `bits` (the guest's session calls as it). */
async function giveGuestRole(db: Db, w: World, bits: number): Promise<void> {
  const slug = `bits_${bits}`;
  const exists = await db.selectFrom('project_role').select('id').where('project_id', '=', w.projectId).where('slug', '=', slug).executeTakeFirst();
  if (!exists) await db.insertInto('project_role').values({ project_id: w.projectId, slug, name: `Only ${bits}`, permissions: bits, created: now() }).execute();
  await db.updateTable('project_user').set({ role: slug }).where('project_id', '=', w.projectId).where('user_id', '=', w.users.guest.id).execute();
}

async function rowCount(db: Db): Promise<string> {
  const tables = ['access_key', 'repository', 'inventory', 'environment', 'template', 'schedule', 'view', 'project_user', 'project_role', 'task', 'integration', 'runner'] as const;
  const counts = await Promise.all(tables.map(async (t) => Number((await db.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)));
  return counts.join(',');
}

/**
 * The single-bit roles a row refuses are all asked in one world (a refusal changes nothing, which
 * is checked); each role the row allows gets a fresh world, since its request may delete things.
 */
async function checkRow(s: TestServer, row: MatrixRow, needed: number): Promise<void> {
  const method = row.route.split(' ')[0]!;
  const outcome: Record<string, string> = {};
  const expected: Record<string, string> = {};
  const allowed = PERMISSION_NAMES.filter((name) => hasPermission(effectivePermissions(Permission[name], false), needed));
  const refused = PERMISSION_NAMES.filter((name) => !allowed.includes(name));
  const w = await buildWorld(s.deps.db);
  const ids = (await row.setup?.(s.deps.db, w)) ?? {};
  for (const name of refused) {
    await giveGuestRole(s.deps.db, w, Permission[name]);
    const before = await rowCount(s.deps.db);
    const res = await s.call(method, row.path(w, w.users.guest, ids), row.body?.(w, w.users.guest, ids), w.auth.guest);
    const changed = (await rowCount(s.deps.db)) !== before;
    outcome[name] = res.status === 403 && res.text === '' && !changed ? 'refused' : `${res.status}${changed ? ' and changed rows' : ''}`;
    expected[name] = 'refused';
  }
  for (const name of allowed) {
    const fresh = await buildWorld(s.deps.db);
    const freshIds = (await row.setup?.(s.deps.db, fresh)) ?? {};
    await giveGuestRole(s.deps.db, fresh, Permission[name]);
    const res = await s.call(method, row.path(fresh, fresh.users.guest, freshIds), row.body?.(fresh, fresh.users.guest, freshIds), fresh.auth.guest);
    outcome[name] = [401, 403, 404].includes(res.status) ? `${res.status}` : 'allowed';
    expected[name] = 'allowed';
  }
  expect(outcome, row.route).toEqual(expected);
}

describe('route table', () => {
  it('names only routes the API mounts', () => {
    expect(Object.keys(ROUTE_PERMISSIONS).filter((route) => !MOUNTED.includes(route))).toEqual([]);
  });

  it('has a matrix row for every guarded route', () => {
    const walked = new Set(GUARDED_ROWS.map(({ row }) => mountedRouteOf(row.route)));
    expect(Object.keys(ROUTE_PERMISSIONS).filter((route) => !walked.has(route))).toEqual([]);
  });
});

for (const dialect of DIALECTS) {
  describe(`custom roles of one permission bit × every guarded project route (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });
    for (const { row, needed } of GUARDED_ROWS) {
      it(`${row.route} (needs ${needed})`, () => checkRow(s, row, needed));
    }
  });
}
