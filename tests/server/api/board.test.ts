import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProject, insertTemplate } from '../../support/fixtures.ts';
import { insertMember, insertTask } from '../../support/project-rows.ts';
import { mountedRoutes } from '../../support/route-table.ts';
import { now } from '../../../src/server/lib/time.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

interface Tile { kind: string; id: number; name: string; project_id: number; project_name: string; fail_streak: number; estimate_ms: number | null;
  task: { id: number; status: string; user_name: string; start: string | null; end: string | null } | null }

/** A finished task with start and end `ms` apart. */
async function finishedTask(s: TestServer, projectId: number, templateId: number, status: string, ms = 1000, userId: number | null = null) {
  const task = await insertTask(s.deps.db, { projectId, templateId, status, userId });
  const start = new Date(Date.now() - 60_000);
  await s.deps.db.updateTable('task').set({ start: start.toISOString(), end: new Date(start.getTime() + ms).toISOString() }).where('id', '=', task.id).execute();
  return task;
}

for (const dialect of DIALECTS) {
  describe(`wall board API (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let p1: number; let p2: number; let p3: number;
    let deploy: number; let backup: number; let lint: number; let other: number; let viewId: number;
    let owner: Auth; let guest: Auth; let manager: Auth;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      p1 = (await insertProject(s.deps.db, 'Alpha')).id;
      p2 = (await insertProject(s.deps.db, 'Beta')).id;
      p3 = (await insertProject(s.deps.db, 'Gamma')).id;
      viewId = (await s.deps.db.insertInto('view').values({ project_id: p1, title: 'Prod', position: 0, type: '', hidden: 0, sort_reverse: 0 }).returning('id').executeTakeFirstOrThrow()).id;
      deploy = (await insertTemplate(s.deps.db, p1, { name: 'Deploy', view_id: viewId })).id;
      backup = (await insertTemplate(s.deps.db, p1, { name: 'Backup' })).id;
      lint = (await insertTemplate(s.deps.db, p2, { name: 'Lint' })).id;
      other = (await insertTemplate(s.deps.db, p3, { name: 'Secret work' })).id;
      const adminId = (await s.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow()).id;
      // Deploy: success (3 s), error, success (5 s), error, error, running → streak 2, estimate 5 s
      await finishedTask(s, p1, deploy, 'success', 3000);
      await finishedTask(s, p1, deploy, 'error');
      await finishedTask(s, p1, deploy, 'success', 5000);
      await finishedTask(s, p1, deploy, 'error');
      await finishedTask(s, p1, deploy, 'error');
      const running = await insertTask(s.deps.db, { projectId: p1, templateId: deploy, status: 'running', userId: adminId });
      await s.deps.db.updateTable('task').set({ start: now() }).where('id', '=', running.id).execute();
      // Backup: error (streak 1); Lint: success; Secret work: error ×3
      await finishedTask(s, p1, backup, 'error');
      await finishedTask(s, p2, lint, 'success', 2000);
      for (let i = 0; i < 3; i++) await finishedTask(s, p3, other, 'error');
      owner = await insertMember(s.deps.db, p1, 'owner');
      await s.deps.db.insertInto('project_user').values({ project_id: p2, user_id: (await userIdOf(owner)), role: 'guest', created: now() }).execute();
      guest = await insertMember(s.deps.db, p1, 'guest');
      manager = await insertMember(s.deps.db, p2, 'manager');
    });
    afterAll(async () => { await s.close(); });

    async function userIdOf(auth: Auth): Promise<number> {
      return (await s.call('GET', '/api/user', undefined, auth)).body.id;
    }
    const board = async (query: string, auth: Auth = admin) => {
      const res = await s.call('GET', `/api/board${query}`, undefined, auth);
      expect(res.status, res.text).toBe(200);
      return res.body as { by: string; tiles: Tile[]; projects: Array<{ id: number; name: string }> };
    };

    it('gives an admin one tile per template of every project, failures first, with streak, last task and estimate', async () => {
      const data = await board('');
      expect(data.tiles.map((t) => t.name)).toEqual(['Secret work', 'Deploy', 'Backup', 'Lint']);
      const tile = data.tiles.find((t) => t.id === deploy)!;
      expect(tile).toMatchObject({ kind: 'template', project_id: p1, project_name: 'Alpha', fail_streak: 2, estimate_ms: 5000 });
      expect(tile.task).toMatchObject({ status: 'running', user_name: ADMIN.name });
      expect(data.tiles.find((t) => t.id === lint)).toMatchObject({ fail_streak: 0, estimate_ms: 2000, task: { status: 'success', user_name: '' } });
      expect(data.tiles.find((t) => t.id === other)).toMatchObject({ fail_streak: 3, estimate_ms: null });
    });

    it('counts the streak again from zero after a success', async () => {
      await finishedTask(s, p1, backup, 'success', 1500);
      const tile = (await board(`?project_ids=${p1}`)).tiles.find((t) => t.id === backup)!;
      expect(tile).toMatchObject({ fail_streak: 0, estimate_ms: 1500, task: { status: 'success' } });
    });

    it('shows a member only the projects they belong to, whatever project_ids asks for', async () => {
      const data = await board(`?project_ids=${p1},${p2},${p3}`, owner);
      expect(new Set(data.tiles.map((t) => t.project_id))).toEqual(new Set([p1, p2]));
      expect(JSON.stringify(data)).not.toContain('Secret work');
      expect(JSON.stringify(data)).not.toContain('Gamma');
      const mine = await board('', guest);
      expect(new Set(mine.tiles.map((t) => t.project_id))).toEqual(new Set([p1]));
    });

    it('groups by view and restricts to one view', async () => {
      const byView = await board(`?project_ids=${p1}&by=view`);
      expect(byView.tiles).toEqual([expect.objectContaining({ kind: 'view', id: viewId, name: 'Prod', fail_streak: 2, task: expect.objectContaining({ status: 'running' }) })]);
      const oneView = await board(`?view_id=${viewId}`);
      expect(oneView.tiles.map((t) => t.id)).toEqual([deploy]);
    });

    it('refuses malformed query values with a 400 naming the field, and a view outside the board', async () => {
      for (const [query, field] of [['?project_ids=1,x', 'project_ids'], ['?project_ids=', 'project_ids'], ['?project_ids=0', 'project_ids'],
        ['?by=task', 'by'], ['?view_id=-1', 'view_id'], ['?view_id=99999999999', 'view_id'], [`?project_ids=${p2}&view_id=${viewId}`, 'view_id']] as const) {
        const res = await s.call('GET', `/api/board${query}`, undefined, admin);
        expect(res.status, query).toBe(400);
        expect(res.body.error, query).toContain(field);
      }
      expect((await s.call('GET', `/api/board?view_id=${viewId}`, undefined, guest)).status).toBe(200);
      expect((await s.call('GET', `/api/board?view_id=${viewId}`, undefined, manager)).status).toBe(400);
    });

    it('refuses a caller without a session or token', async () => {
      expect((await s.call('GET', '/api/board')).status).toBe(401);
      expect((await s.call('GET', '/api/board?token=sbb_nope')).status).toBe(401);
    });

    describe('board tokens', () => {
      const create = async (body: unknown, auth: Auth = admin) => s.call('POST', '/api/board/tokens', body, auth);

      it('is shown once, stored as a hash, and opens its board only', async () => {
        const res = await create({ name: 'Wall', project_ids: [p1] });
        expect(res.status, res.text).toBe(201);
        const token = res.body.token as string;
        expect(token).toMatch(/^sbb_[A-Za-z0-9_-]{43}$/);
        const rows = await s.deps.db.selectFrom('board_token').selectAll().execute();
        expect(JSON.stringify(rows)).not.toContain(token);
        const list = await s.call('GET', '/api/board/tokens', undefined, admin);
        expect(list.text).not.toContain(token);
        expect(list.body[0]).toMatchObject({ name: 'Wall', project_ids: [p1], by: 'template', prefix: token.slice(0, 12) });
        // the token's board, whatever the query asks
        const data = await board(`?token=${token}&project_ids=${p3}&by=view`, {});
        expect(data.by).toBe('template');
        expect(new Set(data.tiles.map((t) => t.project_id))).toEqual(new Set([p1]));
        expect(JSON.stringify(data)).not.toContain('Secret work');
      });

      it('opens no other route, as a bearer header or as ?token=', async () => {
        const { token } = (await create({ project_ids: [p1] })).body as { token: string };
        const routes = mountedRoutes().filter((r) => r !== 'GET /api/board');
        for (const route of routes) {
          const [method, path] = route.split(' ') as [string, string];
          if (!path.startsWith('/api/') || /^\/api\/(integrations|terraform|internal)\//.test(path) || /^\/api\/(ping|info|openapi\.json|metrics)$/.test(path)) continue;
          if (path.startsWith('/api/auth/')) continue;
          const url = path.replace(/:(\w+)(\{[^}]*\})?/g, (_m, name: string) => (name === 'project_id' ? String(p1) : '1'));
          for (const auth of [{ authorization: `Bearer ${token}` }, {}] as Auth[]) {
            const res = await s.call(method, `${url}${url.includes('?') ? '&' : '?'}token=${token}`, method === 'GET' ? undefined : {}, auth);
            expect([401, 403, 404], `${route} ${JSON.stringify(auth)}`).toContain(res.status);
            expect(res.text, route).not.toContain('Deploy');
          }
        }
      });

      it('is refused once revoked, and its deletion is audited', async () => {
        const created = (await create({ name: 'Gone soon', project_ids: [p1, p2] })).body as { id: number; token: string };
        expect((await s.call('GET', `/api/board?token=${created.token}`)).status).toBe(200);
        expect((await s.call('DELETE', `/api/board/tokens/${created.id}`, undefined, admin)).status).toBe(204);
        expect((await s.call('GET', `/api/board?token=${created.token}`)).status).toBe(401);
        expect((await s.call('DELETE', `/api/board/tokens/${created.id}`, undefined, admin)).status).toBe(404);
        await settleAuditInbox(s.deps.db);
        const audit = await s.deps.db.selectFrom('audit').select(['action', 'object_type', 'object_name']).where('object_type', '=', 'board_token').orderBy('id').execute();
        expect(audit.filter((a) => a.object_name.includes('Gone soon')).map((a) => a.action)).toEqual(['token_create', 'token_delete']);
      });

      it('lets an owner or manager make one for their projects only; guests and others are refused', async () => {
        expect((await create({ project_ids: [p1] }, owner)).status).toBe(201);
        expect((await create({ project_ids: [p1, p2] }, owner)).status).toBe(403);
        expect((await create({ project_ids: [p2] }, manager)).status).toBe(201);
        expect((await create({ project_ids: [p1] }, guest)).status).toBe(403);
        expect((await create({ project_ids: [p3] }, owner)).status).toBe(400);
        expect((await create({ project_ids: [987654] }, admin)).status).toBe(400);
        const mine = (await s.call('GET', '/api/board/tokens', undefined, owner)).body as Array<{ user_id: number }>;
        const ownerId = await userIdOf(owner);
        expect(mine.length).toBeGreaterThan(0);
        expect(mine.every((t) => t.user_id === ownerId)).toBe(true);
        const adminsToken = (await create({ project_ids: [p1] })).body as { id: number };
        expect((await s.call('DELETE', `/api/board/tokens/${adminsToken.id}`, undefined, owner)).status).toBe(404);
      });

      it('shrinks to what its creator still sees', async () => {
        const member = await insertMember(s.deps.db, p2, 'owner');
        const { token } = (await create({ project_ids: [p2] }, member)).body as { token: string };
        expect((await board(`?token=${token}`, {})).tiles.map((t) => t.id)).toEqual([lint]);
        await s.deps.db.deleteFrom('project_user').where('user_id', '=', await userIdOf(member)).execute();
        expect((await board(`?token=${token}`, {})).tiles).toEqual([]);
      });

      it('refuses bad bodies with a 400 naming the field', async () => {
        for (const [body, field] of [[{}, 'project_ids'], [{ project_ids: [] }, 'project_ids'], [{ project_ids: ['1'] }, 'project_ids'],
          [{ project_ids: [p1], by: 'x' }, 'by'], [{ project_ids: [p1], view_id: 'x' }, 'view_id'], [{ project_ids: [p2], view_id: viewId }, 'view_id'],
          [{ project_ids: [p1], name: 'x'.repeat(300) }, 'name']] as const) {
          const res = await create(body);
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(res.body.error).toContain(field);
        }
      });
    });
  });
}
