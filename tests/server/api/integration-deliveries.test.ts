import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertIntegration } from '../../support/trigger-fixtures.ts';
import { insertUser } from '../../../src/server/domain/users/user.repository.ts';
import { hashPassword } from '../../../src/server/access/password.ts';

for (const dialect of DIALECTS) {
  describe(`integration deliveries list (${dialect})`, () => {
    let server: TestServer;
    beforeEach(async () => { server = await startTestServer(dialect); });
    afterEach(async () => { await server.close(); });

    async function addUser(login: string, role?: { projectId: number; role: string }) {
      const user = await insertUser(server.deps.db, {
        username: login, name: login, email: `${login}@example.test`, password: await hashPassword('user-password-1'),
        admin: 0, external: 0, alert: 0, created: new Date().toISOString(),
      });
      if (role) await server.deps.db.insertInto('project_user').values({ project_id: role.projectId, user_id: user.id, role: role.role, created: new Date().toISOString() }).execute();
      return server.login(login, 'user-password-1');
    }

    it('lists the last 100 deliveries newest first, to any project member, with the outcome of each', async () => {
      const fixture = await insertAdminProject(server);
      const { integration, alias } = await insertIntegration(server, fixture.project.id, fixture.template.id, {
        matchers: [{ name: 'kind', match_type: 'header', method: 'equals', key: 'X-Kind', value: 'go' }],
      });
      await server.api.request(`/api/integrations/${alias}`, { method: 'POST', body: '{}', headers: { 'X-Kind': 'stop' } });
      await server.api.request(`/api/integrations/${alias}`, { method: 'POST', body: '{}', headers: { 'X-Kind': 'go' } });
      const task = await server.deps.db.selectFrom('task').select('id').executeTakeFirstOrThrow();

      const guest = await addUser('guest1', { projectId: fixture.project.id, role: 'guest' });
      const res = await server.call('GET', `/api/project/${fixture.project.id}/integrations/${integration.id}/deliveries`, undefined, guest);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: expect.any(Number), project_id: fixture.project.id, integration_id: integration.id, created: expect.any(String), matched: true, reason: 'matched', task_id: task.id },
        { id: expect.any(Number), project_id: fixture.project.id, integration_id: integration.id, created: expect.any(String), matched: false, reason: 'matcher kind did not match', task_id: null },
      ]);

      const rows = Array.from({ length: 120 }, (_, i) => ({
        project_id: fixture.project.id, integration_id: integration.id, created: new Date().toISOString(), matched: 0, reason: `bulk ${i}`, task_id: null,
      }));
      await server.deps.db.insertInto('integration_delivery').values(rows).execute();
      const page = await server.call('GET', `/api/project/${fixture.project.id}/integrations/${integration.id}/deliveries`, undefined, guest);
      expect(page.body).toHaveLength(100);
      expect(page.body[0].reason).toBe('bulk 119');
      expect(page.body[99].reason).toBe('bulk 20');
    });

    it('hides deliveries from non-members, of other projects\' integrations, and from anonymous callers', async () => {
      const fixture = await insertAdminProject(server);
      const other = await insertAdminProject(server);
      const { integration } = await insertIntegration(server, other.project.id, other.template.id);
      const admin = await server.login(ADMIN.login, ADMIN.password);
      expect((await server.call('GET', `/api/project/${fixture.project.id}/integrations/${integration.id}/deliveries`, undefined, admin)).status).toBe(404);
      const outsider = await addUser('outsider1');
      expect((await server.call('GET', `/api/project/${other.project.id}/integrations/${integration.id}/deliveries`, undefined, outsider)).status).toBe(404);
      expect((await server.call('GET', `/api/project/${other.project.id}/integrations/${integration.id}/deliveries`)).status).toBe(401);
    });
  });
}
