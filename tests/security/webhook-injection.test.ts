import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN } from '../support/harness.ts';
import { insertAdminProject, insertIntegration, listDeliveryRows, listTasks } from '../support/trigger-fixtures.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';

for (const dialect of DIALECTS) {
  describe(`webhook values that try to steer the run (${dialect}, real HTTP)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      fixture = await insertAdminProject(server.s);
      await server.s.deps.db.updateTable('template').set({ allow_override_branch_in_task: 1 }).where('id', '=', fixture.template.id).execute();
    });
    afterAll(async () => { await server.close(); });

    const hook = (name: string, variable: string, templateId = fixture.template.id) => insertIntegration(server.s, fixture.project.id, templateId, {
      name, values: [{ value_source: 'body', key: 'x', variable, variable_type: 'task' }],
    });
    const deliver = (alias: string, x: string) => fetch(`${server.url}/api/integrations/${alias}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x }),
    });
    const outcome = async (integrationId: number) => {
      const [row] = await listDeliveryRows(server.s.deps.db, integrationId);
      return { reason: row?.reason, taskId: row?.task_id ?? null };
    };

    it('refuses a git_branch value that git would read as an option (--upload-pack), starting nothing', async () => {
      for (const [name, branch] of [['upload-pack', '--upload-pack=touch /tmp/x;git-upload-pack'], ['after-refs', 'refs/heads/--upload-pack=id']]) {
        const { integration, alias } = await hook(name, 'git_branch');
        expect((await deliver(alias, branch)).status).toBe(204);
        expect(await outcome(integration.id)).toEqual({ reason: 'failed to start task: git_branch: not a valid branch name', taskId: null });
      }
      expect(await listTasks(server.s.deps.db, fixture.project.id)).toEqual([]);
    });

    it('refuses a value mapped to playbook (or arguments) at delivery, and when the integration is saved', async () => {
      const { integration, alias } = await hook('playbook', 'playbook');
      expect((await deliver(alias, '/path/to/db.sqlite.key')).status).toBe(204);
      expect(await outcome(integration.id)).toEqual({ reason: 'refused: task values may set only message, git_branch, commit_hash, not playbook', taskId: null });
      expect(await listTasks(server.s.deps.db, fixture.project.id)).toEqual([]);

      const admin = await server.s.login(ADMIN.login, ADMIN.password);
      for (const variable of ['playbook', 'arguments', 'limit']) {
        const res = await fetch(`${server.url}/api/project/${fixture.project.id}/integrations/${integration.id}/values`, {
          method: 'POST', headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify({ name: variable, value_source: 'body', body_data_type: 'json', key: 'x', variable, variable_type: 'task' }),
        });
        expect([variable, res.status, await res.json()]).toEqual([variable, 400, { error: 'variable: a task value may set only message, git_branch, commit_hash' }]);
      }
    });

    it('sets git_branch only when the template allows a branch override (else says it was not applied), and checks commit_hash', async () => {
      const locked = await server.s.deps.db.insertInto('template').values({ ...fixture.template, id: undefined, name: 'Locked', allow_override_branch_in_task: 0 })
        .returning('id').executeTakeFirstOrThrow();
      const branch = await hook('locked-branch', 'git_branch', locked.id);
      await deliver(branch.alias, '--upload-pack=touch /tmp/x');
      const notApplied = await outcome(branch.integration.id);
      expect(notApplied.reason).toBe('matched; git_branch "--upload-pack=touch /tmp/x" not applied: the template does not let a task choose its branch');
      const lockedTask = await server.s.deps.db.selectFrom('task').select('git_branch').where('id', '=', notApplied.taskId!).executeTakeFirstOrThrow();
      expect(lockedTask.git_branch).toBeNull();
      await server.s.deps.db.deleteFrom('task').where('id', '=', notApplied.taskId!).execute();
      const commit = await hook('bad-commit', 'commit_hash');
      await deliver(commit.alias, '--output=/tmp/x');
      expect(await outcome(commit.integration.id)).toEqual({ reason: 'failed to start task: commit_hash: must be a hexadecimal commit id', taskId: null });
      const good = await hook('good-branch', 'git_branch');
      await deliver(good.alias, 'refs/heads/release/2.1');
      const { taskId } = await outcome(good.integration.id);
      const task = await server.s.deps.db.selectFrom('task').select('git_branch').where('id', '=', taskId!).executeTakeFirstOrThrow();
      expect(task.git_branch).toBe('refs/heads/release/2.1');
    });
  });
}
