import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN } from '../support/harness.ts';
import { buildWorld, type World } from '../support/world.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';

interface EventView { project_id: number | null; user_id: number | null; object_type: string; object_id: number | null; description: string }

for (const dialect of DIALECTS) {
  describe(`GET /api/events for a user who shares no project with others (${dialect}, real HTTP)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let mine: World;
    let outsiderId = 0;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      mine = await buildWorld(server.s.deps.db);
      await buildWorld(server.s.deps.db);
      // the admin creates an account: a project-less event about another user
      const admin = await server.s.login(ADMIN.login, ADMIN.password);
      const created = await fetch(`${server.url}/api/users`, {
        method: 'POST', headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'outsider', name: 'Outsider', email: 'outsider@example.test', password: 'outsider-pass-1' }),
      });
      expect(created.status).toBe(201);
      outsiderId = ((await created.json()) as { id: number }).id;
    });
    afterAll(async () => { await server.close(); });

    it('shows no other user\'s global events, only the caller\'s projects and the caller\'s own', async () => {
      const res = await fetch(`${server.url}/api/events`, { headers: mine.auth.guest });
      expect(res.status).toBe(200);
      const events = (await res.json()) as EventView[];
      const guestId = mine.users.guest.id;
      const foreign = events.filter((e) => e.project_id === null && e.user_id !== guestId && !(e.object_type === 'user' && e.object_id === guestId));
      expect(foreign.map((e) => e.description)).toEqual([]);
      expect(events.some((e) => e.object_id === outsiderId)).toBe(false);
      expect(events.every((e) => e.project_id === null || e.project_id === mine.projectId)).toBe(true);
      expect(events.some((e) => e.project_id === mine.projectId)).toBe(true);
    });

    it('keeps account events out of the activity log for everyone, as Semaphore does: the admin finds them in the audit trail', async () => {
      const outsider = await server.s.login('outsider', 'outsider-pass-1');
      const theirs = (await (await fetch(`${server.url}/api/events`, { headers: outsider })).json()) as EventView[];
      expect(theirs).toEqual([]);
      const admin = await server.s.login(ADMIN.login, ADMIN.password);
      const all = (await (await fetch(`${server.url}/api/events`, { headers: admin })).json()) as EventView[];
      expect(all.some((e) => e.object_id === outsiderId)).toBe(false);
      expect(all.some((e) => e.project_id === mine.projectId)).toBe(true);
      const audit = await server.s.deps.db.selectFrom('audit').select(['object_type', 'object_id']).where('object_type', '=', 'user').execute();
      expect(audit.some((a) => a.object_id === outsiderId)).toBe(true);
    });
  });
}
