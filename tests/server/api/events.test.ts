import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { buildWorld } from '../../support/world.ts';
import { recordEvent } from '../../../src/server/domain/events/event.repository.ts';

const EVENT_FIELDS = ['created', 'description', 'integration_id', 'object_id', 'object_name', 'object_type', 'project_id', 'project_name', 'user_id', 'username'];

for (const dialect of DIALECTS) {
  describe(`events (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
    });
    afterAll(async () => { await s.close(); });

    it('shows events with exactly the Semaphore fields, newest first, with project and user names', async () => {
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

    it('shows a non-admin only their projects’ events plus project-less ones; admins see all', async () => {
      const mine = await buildWorld(s.deps.db);
      const theirs = await buildWorld(s.deps.db);
      const seen = (await s.call('GET', '/api/events', undefined, mine.auth.guest)).body as { project_id: number | null }[];
      expect(seen.some((e) => e.project_id === mine.projectId)).toBe(true);
      expect(seen.some((e) => e.project_id === theirs.projectId)).toBe(false);
      expect(seen.every((e) => e.project_id === null || e.project_id === mine.projectId)).toBe(true);
      const all = (await s.call('GET', '/api/events', undefined, admin)).body as { project_id: number | null }[];
      expect(all.some((e) => e.project_id === theirs.projectId)).toBe(true);
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
