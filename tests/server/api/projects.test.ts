import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { buildWorld } from '../../support/world.ts';
import { now } from '../../../src/server/lib/time.ts';

for (const dialect of DIALECTS) {
  describe(`projects (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let adminId: number;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      adminId = (await s.call('GET', '/api/user', undefined, admin)).body.id;
    });
    afterAll(async () => { await s.close(); });

    const countRows = async (table: 'access_key' | 'environment' | 'repository' | 'inventory' | 'template' | 'task' | 'project_user' | 'event', projectId: number) =>
      Number((await s.deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow()).n);

    it('creates a project with the creator as owner, key None, environment Empty and a "Project created" event', async () => {
      const res = await s.call('POST', '/api/projects', { name: 'Alpha', max_parallel_tasks: 2, alert: true }, admin);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'Alpha', max_parallel_tasks: 2, alert: true, alert_chat: null, type: '' });
      const id = res.body.id;
      expect((await s.call('GET', `/api/project/${id}/role`, undefined, admin)).body).toEqual({ role: 'owner', permissions: 15 });
      const keys = await s.deps.db.selectFrom('access_key').select(['name', 'type']).where('project_id', '=', id).execute();
      expect(keys).toEqual([{ name: 'None', type: 'none' }]);
      const envs = await s.deps.db.selectFrom('environment').select(['name', 'json']).where('project_id', '=', id).execute();
      expect(envs).toEqual([{ name: 'Empty', json: '{}' }]);
      const events = (await s.call('GET', `/api/project/${id}/events`, undefined, admin)).body;
      expect(events).toEqual([expect.objectContaining({ description: 'Project created', object_type: 'project', object_id: id, project_name: 'Alpha' })]);
    });

    it('clears the cache: the project work folder and its repositories\' clones, not other projects\' clones', async () => {
      const { project, repository } = await insertProjectWithTemplate(s.deps.db, { ownerId: adminId });
      const tmp = s.config.tmp_path;
      for (const dir of [`project_${project.id}`, `repository_${repository.id}_1`, `repository_${repository.id + 1000}_1`]) {
        mkdirSync(join(tmp, dir), { recursive: true });
        writeFileSync(join(tmp, dir, 'f'), 'x');
      }
      const guest = (await buildWorld(s.deps.db));
      expect((await s.call('DELETE', `/api/project/${guest.projectId}/cache`, undefined, guest.auth.manager)).status).toBe(403);
      expect((await s.call('DELETE', `/api/project/${project.id}/cache`, undefined, admin)).status).toBe(204);
      expect(existsSync(join(tmp, `project_${project.id}`))).toBe(false);
      expect(existsSync(join(tmp, `repository_${repository.id}_1`))).toBe(false);
      expect(existsSync(join(tmp, `repository_${repository.id + 1000}_1`))).toBe(true);
    });

    it('accepts the demo flag', async () => {
      const res = await s.call('POST', '/api/projects', { name: 'Demo', demo: true }, admin);
      expect(res.status).toBe(201);
      expect(await countRows('access_key', res.body.id)).toBeGreaterThanOrEqual(1);
    });

    it('updates a project and records "Project updated"', async () => {
      const id = (await s.call('POST', '/api/projects', { name: 'Before' }, admin)).body.id;
      const res = await s.call('PUT', `/api/project/${id}/`, { id, name: 'After', alert: true, alert_chat: '-100', max_parallel_tasks: 3, created: 'ignored' }, admin);
      expect(res.status).toBe(204);
      const project = (await s.call('GET', `/api/project/${id}`, undefined, admin)).body;
      expect(project).toMatchObject({ id, name: 'After', alert: true, alert_chat: '-100', max_parallel_tasks: 3 });
      const events = (await s.call('GET', `/api/project/${id}/events/last`, undefined, admin)).body;
      expect(events[0]).toMatchObject({ description: 'Project updated', project_name: 'After' });
    });

    it('refuses an update whose body id differs from the URL, changing nothing', async () => {
      const id = (await s.call('POST', '/api/projects', { name: 'Fixed' }, admin)).body.id;
      const res = await s.call('PUT', `/api/project/${id}`, { id: id + 1000, name: 'Other' }, admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Project ID in body and URL must be the same');
      expect((await s.call('GET', `/api/project/${id}`, undefined, admin)).body.name).toBe('Fixed');
    });

    it('refuses a manager (no UpdateProject bit) with 403', async () => {
      const w = await buildWorld(s.deps.db);
      expect((await s.call('PUT', `/api/project/${w.projectId}`, { name: 'x' }, w.auth.manager)).status).toBe(403);
      expect((await s.call('DELETE', `/api/project/${w.projectId}`, undefined, w.auth.manager)).status).toBe(403);
    });

    it('deletes a project with everything in it and its working folders, leaving other projects alone', async () => {
      const doomed = await insertProjectWithTemplate(s.deps.db, { ownerId: adminId });
      const kept = await insertProjectWithTemplate(s.deps.db, { ownerId: adminId });
      for (const f of [doomed, kept]) {
        await s.deps.db.insertInto('task').values({
          project_id: f.project.id, template_id: f.template.id, status: 'success', user_id: adminId, integration_id: null, schedule_id: null,
          build_task_id: null, inventory_id: null, playbook: '', environment: '{}', arguments: null, git_branch: null, message: '',
          commit_hash: null, commit_message: '', version: null, params: '{}', created: now(), start: null, end: null, locked_by: null,
        }).execute();
      }
      const tmp = s.config.tmp_path;
      const dirs = {
        project: join(tmp, `project_${doomed.project.id}`),
        clone: join(tmp, `repository_${doomed.repository.id}_${doomed.template.id}`),
        keptProject: join(tmp, `project_${kept.project.id}`),
        keptClone: join(tmp, `repository_${kept.repository.id}_${kept.template.id}`),
      };
      for (const dir of Object.values(dirs)) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'file.txt'), 'x');
      }

      const res = await s.call('DELETE', `/api/project/${doomed.project.id}`, undefined, admin);
      expect(res.status).toBe(204);
      for (const table of ['access_key', 'environment', 'repository', 'inventory', 'template', 'task', 'project_user', 'event'] as const) {
        expect(await countRows(table, doomed.project.id), table).toBe(0);
        expect(await countRows(table, kept.project.id), table).toBeGreaterThan(table === 'event' ? -1 : 0);
      }
      expect((await s.call('GET', `/api/project/${doomed.project.id}`, undefined, admin)).status).toBe(404);
      expect(existsSync(dirs.project)).toBe(false);
      expect(existsSync(dirs.clone)).toBe(false);
      expect(existsSync(dirs.keptProject)).toBe(true);
      expect(existsSync(dirs.keptClone)).toBe(true);
      const audit = (await s.call('GET', '/api/audit?object_type=project', undefined, admin)).body.rows;
      expect(audit[0]).toMatchObject({ object_type: 'project', object_id: doomed.project.id, description: `Project ID ${doomed.project.id} deleted` });
    });

    it('lists only the projects a non-admin belongs to', async () => {
      const w = await buildWorld(s.deps.db);
      const mine = (await s.call('GET', '/api/projects', undefined, w.auth.guest)).body;
      expect(mine.map((p: { id: number }) => p.id)).toEqual([w.projectId]);
      expect((await s.call('GET', '/api/projects', undefined, w.auth.non_member)).body).toEqual([]);
    });
  });
}
