import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import type { Database } from '../../../src/server/db/schema.ts';

/**
 * A write route and a body it accepts. `fields` gives each field's type, so the test can send a
 * value of the wrong type for each; `maxLength` is each string field's limit (default 255).
 */
interface WriteRoute {
  route: string;
  path: (w: World) => string;
  valid: (w: World) => Record<string, unknown>;
  fields: Record<string, 'string' | 'number' | 'boolean'>;
  maxLength?: Record<string, number>;
}

/** Every POST/PUT of issue 2. */
const WRITE_ROUTES: WriteRoute[] = [
  {
    route: 'POST /api/auth/login', path: () => '/api/auth/login',
    valid: (w) => ({ auth: w.users.guest.username, password: w.password }),
    fields: { auth: 'string', password: 'string' }, maxLength: { password: 1024 },
  },
  {
    route: 'POST /api/user/tokens', path: () => '/api/user/tokens',
    valid: () => ({ name: 'CI', expires_at: new Date(Date.now() + 86_400_000).toISOString() }),
    fields: { name: 'string', expires_at: 'string' },
  },
  {
    route: 'POST /api/users', path: () => '/api/users',
    valid: () => ({ name: 'N', username: 'fresh-user', email: 'fresh@example.test', password: 'pw-1', alert: false, admin: false, external: false }),
    fields: { name: 'string', username: 'string', email: 'string', password: 'string', alert: 'boolean', admin: 'boolean', external: 'boolean' },
    maxLength: { password: 1024 },
  },
  {
    route: 'PUT /api/users/{id}', path: (w) => `/api/users/${w.users.spare.id}`,
    valid: (w) => ({ name: 'N', username: w.users.spare.username, email: w.users.spare.email, alert: true, admin: false }),
    fields: { name: 'string', username: 'string', email: 'string', alert: 'boolean', admin: 'boolean' },
  },
  {
    route: 'POST /api/users/{id}/password', path: (w) => `/api/users/${w.users.spare.id}/password`,
    valid: () => ({ password: 'new-password' }), fields: { password: 'string' }, maxLength: { password: 1024 },
  },
  {
    route: 'POST /api/projects', path: () => '/api/projects',
    valid: () => ({ name: 'P', alert: false, alert_chat: 'chat', max_parallel_tasks: 0, demo: false }),
    fields: { name: 'string', alert: 'boolean', alert_chat: 'string', max_parallel_tasks: 'number', demo: 'boolean' },
  },
  {
    route: 'PUT /api/project/{id}', path: (w) => `/api/project/${w.projectId}`,
    valid: (w) => ({ id: w.projectId, name: 'P2', alert: true, alert_chat: 'chat', max_parallel_tasks: 1 }),
    fields: { id: 'number', name: 'string', alert: 'boolean', alert_chat: 'string', max_parallel_tasks: 'number' },
  },
  {
    route: 'POST /api/project/{id}/users', path: (w) => `/api/project/${w.projectId}/users`,
    valid: (w) => ({ user_id: w.users.spare.id, role: 'guest' }), fields: { user_id: 'number', role: 'string' },
  },
  {
    route: 'PUT /api/project/{id}/users/{user_id}', path: (w) => `/api/project/${w.projectId}/users/${w.users.extra.id}`,
    valid: () => ({ role: 'manager' }), fields: { role: 'string' },
  },
];

const WRONG_VALUES = { string: [12345, true, {}, []], number: ['12', true, 1.5, -3, {}], boolean: ['yes', 1, null, {}] } as const;

/** Malformed and ill-typed bodies for one route, each with a label. */
function badBodies(r: WriteRoute, w: World): [string, string][] {
  const valid = r.valid(w);
  const cases: [string, string][] = [
    ['truncated JSON', JSON.stringify(valid).slice(0, -3)],
    ['not JSON at all', 'name=x&role=owner'],
    ['a JSON array', '[]'],
    ['a JSON string', '"text"'],
    ['JSON null', 'null'],
    ['an unknown field', JSON.stringify({ ...valid, surprise: 'field' })],
  ];
  for (const [field, type] of Object.entries(r.fields)) {
    for (const wrong of WRONG_VALUES[type]) cases.push([`${field} = ${JSON.stringify(wrong)}`, JSON.stringify({ ...valid, [field]: wrong })]);
    if (type === 'string') {
      const length = (r.maxLength?.[field] ?? 255) + 1;
      cases.push([`${field} of ${length} characters`, JSON.stringify({ ...valid, [field]: 'x'.repeat(length) })]);
    }
  }
  return cases;
}

const TABLES: (keyof Database)[] = ['user', 'session', 'api_token', 'login_attempt', 'option', 'project', 'project_user', 'event', 'access_key', 'environment'];

for (const dialect of DIALECTS) {
  describe(`bad input to every write route (${dialect})`, () => {
    let s: TestServer;
    let w: World;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      w = await buildWorld(s.deps.db);
    });
    afterAll(async () => { await s.close(); });

    /** Every row of the tables issue 2 writes, in a stable order. */
    const snapshot = async () => {
      const out: Record<string, string[]> = {};
      for (const table of TABLES) {
        const rows = await s.deps.db.selectFrom(table).selectAll().execute();
        out[table] = rows.map((row) => JSON.stringify(row)).sort();
      }
      return out;
    };

    for (const r of WRITE_ROUTES) {
      it(`answers ${r.route} with 4xx and {"error"} for malformed, ill-typed, unknown and oversized input, changing nothing`, async () => {
        const before = await snapshot();
        const failures: string[] = [];
        for (const [label, body] of badBodies(r, w)) {
          const res = await s.call(r.route.split(' ')[0]!, r.path(w), body, w.auth.admin);
          if (res.status < 400 || res.status >= 500 || typeof res.body?.error !== 'string') failures.push(`${label}: ${res.status} ${res.text.slice(0, 80)}`);
        }
        expect(failures).toEqual([]);
        expect(await snapshot()).toEqual(before);
      });

      it(`answers ${r.route} with 413 for an 11 MB body, changing nothing`, async () => {
        const before = await snapshot();
        const huge = JSON.stringify({ ...r.valid(w), name: 'x'.repeat(11 * 1024 * 1024) });
        const res = await s.call(r.route.split(' ')[0]!, r.path(w), huge, w.auth.admin);
        expect(res.status).toBe(413);
        expect(await snapshot()).toEqual(before);
      });
    }

    it('still accepts the valid bodies (so the cases above fail for the reason they name)', async () => {
      for (const r of WRITE_ROUTES) {
        const res = await s.call(r.route.split(' ')[0]!, r.path(w), r.valid(w), w.auth.admin);
        expect(res.status, r.route).toBeLessThan(300);
      }
    });
  });
}
