import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { buildWorld } from '../../support/world.ts';
import { recordEvent } from '../../../src/server/domain/events/event.repository.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

const SEMAPHORE_FIELDS = ['created', 'description', 'integration_id', 'object_id', 'object_name', 'object_type', 'project_id', 'project_name', 'user_id', 'username'];
/** The audit trail's fields ride along (issue 32); where a request came from only for those who may read the audit trail. */
const EVENT_FIELDS = [...SEMAPHORE_FIELDS, 'action', 'fields'].sort();
const AUDITOR_FIELDS = [...EVENT_FIELDS, 'client_ip', 'user_agent'].sort();

for (const dialect of DIALECTS) {
  describe(`events (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
    });
    afterAll(async () => { await s.close(); });

    it('shows events with the Semaphore fields and the audit action, newest first, with project and user names', async () => {
      const w = await buildWorld(s.deps.db);
      await s.call('PUT', `/api/project/${w.projectId}/users/${w.users.extra.id}`, { role: 'manager' }, w.auth.owner);
      const res = await s.call('GET', `/api/project/${w.projectId}/events`, undefined, w.auth.guest);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      for (const e of res.body) expect(Object.keys(e).sort()).toEqual(EVENT_FIELDS);
      expect(res.body[0]).toMatchObject({
        description: `Changed role for User ID ${w.users.extra.id}`, project_id: w.projectId, user_id: w.users.owner.id,
        username: w.users.owner.username, object_type: 'user', object_id: w.users.extra.id, integration_id: null, object_name: '',
      });
      expect(res.body[0].project_name).toMatch(/^World /);
      expect(res.body[1].description).toBe('Project created');
    });

    it('carries the audit action, the names of the changed fields and, for owners and admins, where the request came from', async () => {
      const w = await buildWorld(s.deps.db);
      const changed = await s.call('PUT', `/api/project/${w.projectId}/users/${w.users.extra.id}`, { role: 'manager' }, w.auth.owner);
      expect(changed.status).toBe(204);
      const asGuest = (await s.call('GET', `/api/project/${w.projectId}/events`, undefined, w.auth.guest)).body;
      expect(asGuest[0]).toMatchObject({ description: `Changed role for User ID ${w.users.extra.id}`, action: 'update', fields: ['role'] });
      expect(Object.keys(asGuest[0]).sort()).toEqual(EVENT_FIELDS);
      const asOwner = (await s.call('GET', `/api/project/${w.projectId}/events`, undefined, w.auth.owner)).body;
      expect(Object.keys(asOwner[0]).sort()).toEqual(AUDITOR_FIELDS);
      await settleAuditInbox(s.deps.db);
      const audit = await s.deps.db.selectFrom('audit').select(['client_ip', 'user_agent']).where('action', '=', 'update')
        .where('project_id', '=', w.projectId).where('object_type', '=', 'user').executeTakeFirstOrThrow();
      expect(audit.client_ip).not.toBe('');
      expect(asOwner[0]).toMatchObject({ client_ip: audit.client_ip, user_agent: audit.user_agent });
      const everywhereAsGuest = (await s.call('GET', '/api/events', undefined, w.auth.guest)).body as Record<string, unknown>[];
      expect(everywhereAsGuest.every((e) => !('client_ip' in e))).toBe(true);
      const everywhereAsAdmin = (await s.call('GET', '/api/events/last', undefined, admin)).body as Record<string, unknown>[];
      expect(everywhereAsAdmin.find((e) => e.description === asOwner[0].description && e.project_id === w.projectId)).toMatchObject({ client_ip: audit.client_ip });
    });

    it('names no action for entries older than the audit trail, and no fields where none were recorded', async () => {
      const w = await buildWorld(s.deps.db);
      await s.deps.db.insertInto('event').values({
        project_id: w.projectId, user_id: null, integration_id: null, object_id: null, object_type: 'project', object_name: '',
        description: 'from an older release', created: new Date().toISOString(), audit_id: null,
      }).execute();
      const [older] = (await s.call('GET', `/api/project/${w.projectId}/events`, undefined, w.auth.guest)).body;
      expect(older).toMatchObject({ description: 'from an older release', action: null, fields: [] });
    });

    it('shows a non-admin only their projects’ events; admins every project’s; nobody project-less ones', async () => {
      const mine = await buildWorld(s.deps.db);
      const theirs = await buildWorld(s.deps.db);
      const seen = (await s.call('GET', '/api/events', undefined, mine.auth.guest)).body as { project_id: number | null }[];
      expect(seen.some((e) => e.project_id === mine.projectId)).toBe(true);
      expect(seen.some((e) => e.project_id === theirs.projectId)).toBe(false);
      expect(seen.every((e) => e.project_id === mine.projectId)).toBe(true);
      await recordEvent(s.deps.db, { projectId: null, userId: null, objectType: 'user', objectId: 1, description: 'User ID 1 changed' });
      const all = (await s.call('GET', '/api/events', undefined, admin)).body as { project_id: number | null }[];
      expect(all.some((e) => e.project_id === theirs.projectId)).toBe(true);
      expect(all.filter((e) => e.project_id === null)).toEqual([]);
    });

    it('limits /events/last to the newest 200', async () => {
      const w = await buildWorld(s.deps.db);
      for (let i = 0; i < 205; i++) {
        await recordEvent(s.deps.db, { projectId: w.projectId, userId: null, objectType: 'project', objectId: w.projectId, description: `bulk ${i}` });
      }
      const last = (await s.call('GET', `/api/project/${w.projectId}/events/last`, undefined, w.auth.guest)).body;
      expect(last).toHaveLength(200);
      expect(last[0].description).toBe('bulk 204');
      expect((await s.call('GET', `/api/project/${w.projectId}/events`, undefined, w.auth.guest)).body).toHaveLength(206);
      expect((await s.call('GET', '/api/events/last', undefined, admin)).body).toHaveLength(200);
    });
  });
}
