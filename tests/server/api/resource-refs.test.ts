import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { countResourceRows, createTestProject } from '../../support/project-members.ts';
import { now } from '../../../src/server/lib/time.ts';

for (const dialect of DIALECTS) {
  describe(`refs and safe deletes (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let projectId: number;
    const call = (method: string, path: string, body?: unknown) => s.call(method, path, body, admin);
    const ids = { key: 0, vaultKey: 0, authKey: 0, repo: 0, inventory: 0, workspace: 0, environment: 0, template: 0, schedule: 0, integration: 0, fileInventory: 0 };

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base, projectId } = await createTestProject(s));
      ids.key = (await call('POST', `${base}/keys`, { name: 'Git', type: 'none' })).body.id;
      ids.vaultKey = (await call('POST', `${base}/keys`, { name: 'Vault', type: 'login_password', login_password: { password: 'vault-pass-1' } })).body.id;
      ids.authKey = (await call('POST', `${base}/keys`, { name: 'Hook', type: 'login_password', login_password: { password: 'hook-pass-1' } })).body.id;
      ids.repo = (await call('POST', `${base}/repositories`, { name: 'Repo', git_url: '/srv/repo', ssh_key_id: ids.key })).body.id;
      ids.inventory = (await call('POST', `${base}/inventory`, { name: 'Hosts', type: 'static', inventory: 'localhost', ssh_key_id: ids.key })).body.id;
      ids.fileInventory = (await call('POST', `${base}/inventory`, { name: 'FromRepo', type: 'file', inventory: 'hosts.ini', ssh_key_id: ids.key, repository_id: ids.repo })).body.id;
      ids.workspace = (await call('POST', `${base}/inventory`, { name: 'WS', type: 'terraform-workspace', inventory: 'ws', ssh_key_id: ids.key })).body.id;
      ids.environment = (await call('POST', `${base}/environment`, { name: 'Vars', json: '{}' })).body.id;
      const db = s.deps.db;
      ids.template = (await db.insertInto('template').values({
        project_id: projectId, name: 'Deploy', app: 'ansible', type: '', playbook: 'site.yml', description: '', inventory_id: ids.inventory,
        repository_id: ids.repo, environment_id: ids.environment, arguments: null, allow_override_args_in_task: 0, allow_override_branch_in_task: 0,
        allow_parallel_tasks: 0, start_version: null, build_template_id: null, view_id: null, autorun: 0, git_branch: null,
        survey_vars: '[]', suppress_success_alerts: 0, task_params: '{}', runner_tag: null, working_directory: null, created: now(),
      }).returning('id').executeTakeFirstOrThrow()).id;
      await db.insertInto('template_vault').values({ project_id: projectId, template_id: ids.template, vault_key_id: ids.vaultKey, name: null, type: 'password', script: null }).execute();
      await db.insertInto('template_inventory').values({ template_id: ids.template, inventory_id: ids.workspace }).execute();
      ids.schedule = (await db.insertInto('schedule').values({
        project_id: projectId, template_id: ids.template, name: 'Nightly', cron_format: '0 0 * * *', type: '', run_at: null, active: 1,
        repository_id: ids.repo, last_commit_hash: null, task_params: '{}',
      }).returning('id').executeTakeFirstOrThrow()).id;
      ids.integration = (await db.insertInto('integration').values({
        project_id: projectId, name: 'Push', template_id: ids.template, auth_method: 'token', auth_secret_id: ids.authKey, auth_header: null, searchable: 0, task_params: '{}',
      }).returning('id').executeTakeFirstOrThrow()).id;
    });
    afterAll(async () => { await s.close(); });

    const empty = { templates: [], inventories: [], repositories: [], schedules: [], integrations: [] };

    it('lists what refers to a key: repositories, inventories, vault templates, integrations', async () => {
      expect((await call('GET', `${base}/keys/${ids.key}/refs`)).body).toEqual({
        ...empty,
        repositories: [{ id: ids.repo, name: 'Repo' }],
        inventories: [{ id: ids.inventory, name: 'Hosts' }, { id: ids.fileInventory, name: 'FromRepo' }, { id: ids.workspace, name: 'WS' }],
      });
      expect((await call('GET', `${base}/keys/${ids.vaultKey}/refs`)).body).toEqual({ ...empty, templates: [{ id: ids.template, name: 'Deploy' }] });
      expect((await call('GET', `${base}/keys/${ids.authKey}/refs`)).body).toEqual({ ...empty, integrations: [{ id: ids.integration, name: 'Push' }] });
    });

    it('lists what refers to a repository, an inventory and a variable group', async () => {
      expect((await call('GET', `${base}/repositories/${ids.repo}/refs`)).body).toEqual({
        ...empty, templates: [{ id: ids.template, name: 'Deploy' }], inventories: [{ id: ids.fileInventory, name: 'FromRepo' }],
        schedules: [{ id: ids.schedule, name: 'Nightly' }],
      });
      expect((await call('GET', `${base}/inventory/${ids.inventory}/refs`)).body).toEqual({ ...empty, templates: [{ id: ids.template, name: 'Deploy' }] });
      expect((await call('GET', `${base}/inventory/${ids.workspace}/refs`)).body).toEqual({ ...empty, templates: [{ id: ids.template, name: 'Deploy' }] });
      expect((await call('GET', `${base}/environment/${ids.environment}/refs`)).body).toEqual({ ...empty, templates: [{ id: ids.template, name: 'Deploy' }] });
    });

    it('answers 404 for refs of a missing resource', async () => {
      for (const path of ['keys', 'repositories', 'inventory', 'environment']) {
        expect((await call('GET', `${base}/${path}/999999/refs`)).status, path).toBe(404);
      }
    });

    it('refuses to delete anything still referenced, with inUse and nothing deleted', async () => {
      const before = await countResourceRows(s);
      const cases: [string, string][] = [
        [`keys/${ids.key}`, 'Access Key'], [`keys/${ids.vaultKey}`, 'Access Key'], [`keys/${ids.authKey}`, 'Access Key'],
        [`repositories/${ids.repo}`, 'Repository'], [`inventory/${ids.inventory}`, 'Inventory'], [`inventory/${ids.workspace}`, 'Inventory'],
        [`environment/${ids.environment}`, 'Environment'],
      ];
      for (const [path, label] of cases) {
        const res = await call('DELETE', `${base}/${path}`);
        expect(res.status, path).toBe(400);
        expect(res.body).toEqual({ error: `${label} is in use by one or more templates`, inUse: true });
      }
      expect(await countResourceRows(s)).toEqual(before);
    });

    it('deletes once the references are gone', async () => {
      await s.deps.db.deleteFrom('integration').execute();
      expect((await call('GET', `${base}/keys/${ids.authKey}/refs`)).body).toEqual(empty);
      expect((await call('DELETE', `${base}/keys/${ids.authKey}`)).status).toBe(204);
    });
  });
}
