import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`audit API (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let w: World;
    let keyId: number;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      w = await buildWorld(s.deps.db);
      const key = await s.call('POST', `/api/project/${w.projectId}/keys`, { name: 'deploy-key', type: 'login_password', login_password: { login: 'u', password: 'top-secret-9' } },
        { ...w.auth.owner, 'user-agent': 'audit-test-agent/1.0' });
      keyId = key.body.id;
      await s.call('PUT', `/api/project/${w.projectId}/keys/${keyId}`, { name: 'deploy-key-2', type: 'login_password', override_secret: true, login_password: { login: 'u', password: 'other-secret-7' } }, w.auth.owner);
      await s.call('POST', '/api/auth/login', { auth: w.users.guest.username, password: 'wrong-password' });
      await s.call('POST', '/api/user/tokens', { name: 'ci' }, w.auth.bearer);
    }, 60_000);
    afterAll(async () => { await s.close(); });

    it('records actor, agent, project, object and the names (not values) of updated fields', async () => {
      const res = await s.call('GET', `/api/audit?project_id=${w.projectId}&object_type=key`, undefined, admin);
      expect(res.status).toBe(200);
      const [update, create] = res.body.rows;
      expect(create).toMatchObject({ action: 'create', actor_user_id: w.users.owner.id, actor_name: w.users.owner.username, user_agent: 'audit-test-agent/1.0',
        project_id: w.projectId, object_type: 'key', object_id: keyId, object_name: 'deploy-key', object_url: `/project/${w.projectId}/keys` });
      expect(update).toMatchObject({ action: 'update', object_name: 'deploy-key-2' });
      expect(update.fields.split(',')).toEqual(expect.arrayContaining(['name', 'override_secret', 'login_password']));
      expect(JSON.stringify(res.body)).not.toMatch(/top-secret-9|other-secret-7/);
    });

    it('records a failed sign-in, and a token by its prefix only', async () => {
      const fail = await s.call('GET', '/api/audit?action=login_fail', undefined, admin);
      expect(fail.body.rows[0]).toMatchObject({ action: 'login_fail', actor_user_id: w.users.guest.id, actor_name: w.users.guest.username, object_type: 'user' });
      const token = await s.call('GET', '/api/audit?action=token_create', undefined, admin);
      expect(token.body.rows[0]).toMatchObject({ actor_user_id: w.users.owner.id, actor_token: w.tokens.owner.slice(0, 8) });
      expect(JSON.stringify(token.body)).not.toContain(w.tokens.owner);
    });

    it('filters by user, time and words, and pages with a cursor', async () => {
      const byUser = await s.call('GET', `/api/audit?user=${encodeURIComponent(w.users.owner.username)}`, undefined, admin);
      expect(byUser.body.rows.length).toBeGreaterThanOrEqual(2);
      expect(byUser.body.rows.every((r: { actor_user_id: number }) => r.actor_user_id === w.users.owner.id)).toBe(true);
      const words = await s.call('GET', '/api/audit?q=AUDIT-TEST%20deploy', undefined, admin);
      expect(words.body.rows.map((r: { action: string }) => r.action)).toEqual(['create']);
      const future = await s.call('GET', '/api/audit?from=2999-01-01', undefined, admin);
      expect(future.body).toEqual({ rows: [], next: null });
      const all: number[] = [];
      let next: number | null = null;
      do {
        const page: { body: { rows: { id: number }[]; next: number | null } } = await s.call('GET', `/api/audit?limit=2${next ? `&before=${next}` : ''}`, undefined, admin);
        all.push(...page.body.rows.map((r) => r.id));
        next = page.body.next;
      } while (next);
      await settleAuditInbox(s.deps.db);
      const total = await s.deps.db.selectFrom('audit').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      expect(all).toHaveLength(Number(total.n));
      expect([...all].sort((a, b) => b - a)).toEqual(all);
      expect((await s.call('GET', '/api/audit?from=yesterday', undefined, admin)).status).toBe(400);
      expect((await s.call('GET', '/api/audit?before=x', undefined, admin)).status).toBe(400);
    });

    it('exports the filtered rows as CSV and JSON lines', async () => {
      const csv = await s.call('GET', `/api/audit/export?format=csv&project_id=${w.projectId}&object_type=key`, undefined, admin);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-\d{4}-\d\d-\d\d\.csv"$/);
      const lines = csv.text.trim().split('\n');
      expect(lines[0]).toMatch(/^id,seq,created,action,actor_user_id,actor_name/);
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/,update,/);
      expect(lines[1]).toMatch(/"[a-z_]+(,[a-z_]+)+"/);
      const jsonl = await s.call('GET', `/api/project/${w.projectId}/audit/export?format=jsonl`, undefined, w.auth.owner);
      const rows = jsonl.text.trim().split('\n').map((line) => JSON.parse(line));
      expect(rows.every((r) => r.project_id === w.projectId)).toBe(true);
      expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['create', 'update']));
      expect((await s.call('GET', '/api/audit/export?format=xml', undefined, admin)).status).toBe(400);
    });

    it('keeps /api/events in Semaphore\'s shape, with the audit fields riding along', async () => {
      const events = await s.call('GET', `/api/project/${w.projectId}/events`, undefined, w.auth.owner);
      const semaphore = ['created', 'description', 'integration_id', 'object_id', 'object_name', 'object_type', 'project_id', 'project_name', 'user_id', 'username'];
      expect(Object.keys(events.body[0]).sort()).toEqual([...semaphore, 'action', 'fields', 'client_ip', 'user_agent'].sort());
      for (const name of semaphore) expect(events.body[0][name], name).not.toBeUndefined();
    });

    it('shows the export backlog of enabled sinks (none here)', async () => {
      expect((await s.call('GET', '/api/audit/backlog', undefined, admin)).body).toEqual([]);
    });
  });
}
