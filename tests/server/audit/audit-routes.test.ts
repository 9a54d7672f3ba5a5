import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type Caller } from '../../support/world.ts';
import type { MatrixRow } from '../../support/permission-matrix.ts';
import { mountedRoutes, routePattern } from '../../support/route-table.ts';
import { AUTH_MATRIX_ENV } from '../api/permission-matrix/auth.rows.ts';
import { ALL_MATRIX_ROWS } from '../api/permission-matrix/all.rows.ts';
import { isStateChanging, routeAction } from '../../../src/server/domain/audit/audit-actions.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

/**
 * The audit table (issue 32), driven by the permission matrices, which already hold a request
 * for every route the API mounts (their coverage test fails for a route without one). Each
 * state-changing route is called once by the first caller the matrix lets through; it must
 * leave exactly one audit row naming that caller, the route's action, and an object. A refused
 * call (4xx) leaves no row — except a refused sign-in step, which leaves `login_fail`/`mfa_fail`.
 * A bulk route (ITEMISED) leaves one row per item its body names instead, each saying what was
 * done to that item.
 */
const ROWS: MatrixRow[] = ALL_MATRIX_ROWS;
const ORDER: Caller[] = ['admin', 'owner', 'bearer', 'manager', 'task_runner', 'guest', 'anonymous'];

/** Mounted route ("POST /api/x/:id") a matrix label names. */
function mountedRouteOf(label: string, routes: string[]): string | undefined {
  return routes.find((route) => routePattern(route).test(label));
}

const ROUTES = mountedRoutes();
const STATE_CHANGING = ROWS.map((row) => ({ row, route: mountedRouteOf(row.route, ROUTES) }))
  .filter((r): r is { row: MatrixRow; route: string } => !!r.route && isStateChanging(r.route.split(' ')[0]!, r.route));

/** Requests that can succeed without changing anything: a second factor for a session that has none pending. */
const NO_CHANGE = new Set(['POST /api/auth/verify', 'POST /api/auth/recovery']);
/** Routes a caller reaches without signing in (webhooks, runners, Terraform): they act as no user. */
const NO_USER = /^\w+ \/api\/(integrations|terraform|internal)\//;

/**
 * The request middleware's safety net records a successful state-changing request that wrote no
 * audit row itself, after the change and outside its transaction. No route may rely on it: each
 * records its change in its transaction (recordEvent, writeAudit or withAudit).
 */

/**
 * Bulk routes: one audit row per item of the body, in the transaction of that item's change,
 * with the action done to it (a run's row names the task it started).
 */
const ITEMISED: Record<string, (body: { action: string; template_ids: number[] }) => { count: number; action: string; object: string; ids?: number[] }> = {
  'POST /api/project/:project_id/templates/bulk': (body) => ({
    count: new Set(body.template_ids).size,
    ...(body.action === 'run' ? { action: 'task_start', object: 'task' }
      : { action: body.action === 'delete' ? 'delete' : 'update', object: 'template', ids: [...new Set(body.template_ids)] }),
  }),
};

async function checkRoute(s: TestServer, row: MatrixRow, route: string): Promise<void> {
  const caller = ORDER.find((c) => row.expect[c]! < 300) ?? 'admin';
  const w = await buildWorld(s.deps.db);
  const self = w.self(caller);
  const ids = (await row.setup?.(s.deps.db, w)) ?? {};
  await settleAuditInbox(s.deps.db);
  const before = await s.deps.db.selectFrom('audit').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
  const body = row.body?.(w, self, ids);
  const res = await s.call(route.split(' ')[0]!, row.path(w, self, ids), body, w.auth[caller]);
  await settleAuditInbox(s.deps.db);
  const rows = await s.deps.db.selectFrom('audit').selectAll().where('id', '>', Number(before.id ?? 0)).where('request', '!=', '').orderBy('id').execute();
  if (res.status >= 400) {
    expect(rows.filter((r) => !r.action.endsWith('_fail')), `${row.route} → ${res.status} left rows`).toEqual([]);
    return;
  }
  if (NO_CHANGE.has(route) && rows.length === 0) return;
  const itemised = ITEMISED[route]?.(body as { action: string; template_ids: number[] });
  if (itemised) {
    expect(itemised.count, `${row.route}: the matrix row names items`).toBeGreaterThan(0);
    expect(rows.map((r) => `${r.action} ${r.object_type}`), `${row.route} as ${caller} → ${res.status}`)
      .toEqual(Array.from({ length: itemised.count }, () => `${itemised.action} ${itemised.object}`));
    if (itemised.ids) expect(rows.map((r) => r.object_id), row.route).toEqual(itemised.ids);
    for (const audit of rows) {
      expect(audit.request).toBe(route);
      expect(audit.project_id, row.route).toBe(w.projectId);
      if (caller !== 'anonymous') expect(audit.actor_user_id, row.route).toBe(self?.id ?? null);
      expect(audit.description, row.route).not.toBe('recorded after the change');
    }
    return;
  }
  expect(rows.map((r) => `${r.action} ${r.object_type}`), `${row.route} as ${caller} → ${res.status}`).toHaveLength(1);
  const audit = rows[0]!;
  expect(audit.action, row.route).toBe(routeAction(route).action);
  expect(audit.request).toBe(route);
  expect(audit.object_type, row.route).not.toBe('');
  const actorId = route === 'POST /api/auth/login' ? w.users.guest.id : self?.id ?? null;
  if (caller !== 'anonymous' && !NO_USER.test(route)) expect(audit.actor_user_id, row.route).toBe(actorId);
  if (caller === 'bearer') expect(audit.actor_token).toBe(w.tokens.owner.slice(0, 8));
  if (route.includes('/project/:project_id') && route !== 'POST /api/projects/restore') expect(audit.project_id, row.route).toBe(w.projectId);
  expect(audit.description, `${route} is audited only by the safety net, outside its transaction`).not.toBe('recorded after the change');
}

for (const dialect of DIALECTS) {
  describe(`audit trail: one row per state-changing route (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect, AUTH_MATRIX_ENV); });
    afterAll(async () => { await s.close(); });
    it('drives every state-changing mounted route', () => {
      const driven = new Set(STATE_CHANGING.map((r) => r.route));
      const missing = ROUTES.filter((r) => isStateChanging(r.split(' ')[0]!, r) && !r.startsWith('OPTIONS') && !driven.has(r));
      expect(missing).toEqual([]);
    });
    for (const { row, route } of STATE_CHANGING) {
      it(`records ${row.route}`, () => checkRoute(s, row, route), 60_000);
    }
  });
}
