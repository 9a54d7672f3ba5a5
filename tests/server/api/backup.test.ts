import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { semaphoreBackup } from '../../support/semaphore-backup.ts';
import { now } from '../../../src/server/lib/time.ts';
import { countProjectRows, insertInventory, insertKey, insertMember, insertRepository, insertUserWithToken } from '../../support/project-rows.ts';

/** A backup with the parts that legitimately change on restore blanked: project name and webhook aliases. */
function comparable(backup: any) {
  return {
    ...backup,
    meta: { ...backup.meta, name: '' },
    integrations: backup.integrations.map((i: any) => ({ ...i, aliases: i.aliases.length })),
    integration_aliases: backup.integration_aliases.length,
  };
}

for (const dialect of DIALECTS) {
  describe(`backup and restore (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let p: string;
    let opsId: number;
    let memberId: number;
    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect, { fixture: { app: 'ansible', playbook: 'site.yml' } }));
      p = `/api/project/${f.project.id}`;
      // a project with every kind of resource
      const db = s.deps.db;
      const vaultKey = await insertKey(db, f.project.id, 'Vault pass', 'login_password');
      const sshKey = await insertKey(db, f.project.id, 'Deploy key', 'ssh');
      const repo2 = await insertRepository(db, f.project.id, sshKey.id, 'Infra repo', 'git@example.com:infra.git');
      await insertInventory(db, f.project.id, { name: 'Prod', type: 'static-yaml', inventory: 'all: {}', keyId: sshKey.id });
      const cmdb = await s.call('POST', `${p}/inventory`, {
        name: 'CMDB', type: 'url', inventory: 'https://cmdb.example.test/hosts', ssh_key_id: sshKey.id, source_key_id: vaultKey.id, sync_cron: '*/30 * * * *',
      }, admin);
      expect(cmdb.status, cmdb.text).toBe(201);
      const view = (await s.call('POST', `${p}/views`, { title: 'Ops', position: 2 }, admin)).body;
      opsId = view.id;
      await s.call('POST', `${p}/views`, { title: 'Dev', position: 1, hidden: true }, admin);
      const build = (await s.call('POST', `${p}/templates`, {
        name: 'Build', app: 'bash', playbook: 'build.sh', repository_id: f.repository.id, type: 'build', start_version: '1.0.0', view_id: view.id,
        survey_vars: [{ name: 'v', title: 'V', type: 'enum', values: [{ name: 'a', value: '1' }] }], arguments: '["x"]',
        vaults: [{ name: 'prod', vault_key_id: vaultKey.id }, { type: 'script', script: 'get-client.sh' }], task_params: { allow_debug: true },
      }, admin)).body;
      await s.call('POST', `${p}/templates`, {
        name: 'Deploy', app: 'ansible', playbook: 'deploy.yml', inventory_id: f.inventory.id, repository_id: f.repository.id, environment_id: f.environment.id,
        type: 'deploy', build_template_id: build.id, autorun: true, working_directory: 'ansible',
      }, admin);
      const tf = (await s.call('POST', `${p}/templates`, { name: 'Infra', app: 'terraform', repository_id: repo2.id }, admin)).body;
      const ws = await insertInventory(db, f.project.id, { name: 'staging', type: 'terraform-workspace', inventory: 'staging' });
      await s.call('POST', `${p}/templates/${tf.id}/inventory/${ws.id}/attach`, undefined, admin);
      await s.call('POST', `${p}/schedules`, { name: 'nightly', template_id: build.id, cron_format: '0 3 * * *' }, admin);
      await s.call('POST', `${p}/schedules`, { name: 'commits', template_id: build.id, cron_format: '*/5 * * * *', repository_id: f.repository.id, active: false }, admin);
      const integration = (await s.call('POST', `${p}/integrations`, {
        name: 'GitHub push', template_id: build.id, auth_method: 'github', auth_secret_id: vaultKey.id, searchable: true, task_params: { message: 'hook' },
      }, admin)).body;
      await s.call('POST', `${p}/integrations/${integration.id}/matchers`, { name: 'branch', match_type: 'body', body_data_type: 'json', key: 'ref', method: 'equals', value: 'refs/heads/main' }, admin);
      await s.call('POST', `${p}/integrations/${integration.id}/values`, { name: 'sha', value_source: 'body', body_data_type: 'json', key: 'after', variable: 'SHA', variable_type: 'environment' }, admin);
      await s.call('POST', `${p}/integrations/${integration.id}/aliases`, undefined, admin);
      await s.call('POST', `${p}/integrations/aliases`, undefined, admin);
      const deploy = (await s.call('GET', `${p}/templates`, undefined, admin)).body.find((t: { name: string }) => t.name === 'Deploy');
      const wf = await s.call('POST', `${p}/workflows`, {
        name: 'Release', start_version: '2.0.0',
        nodes: [
          { id: 1, kind: 'task', name: 'build', template_id: build.id, task_params: { limit: 'web' } },
          { id: 2, kind: 'approval', name: 'gate', approval_four_eyes: true, approval_timeout: 60 },
          { id: 3, kind: 'task', name: 'deploy', template_id: deploy.id, task_params: { inventory_id: f.inventory.id } },
          { id: 4, kind: 'note', note: 'ask ops first' },
        ],
        edges: [{ source_node_id: 1, destination_node_id: 2 }, { source_node_id: 2, destination_node_id: 3, input_mode: 'explicit', input_mappings: [{ variable: 'v', output: 'tag' }] }],
      }, admin);
      expect(wf.status, wf.text).toBe(201);
      const chat = (await s.call('POST', `${p}/alert-channels`, { kind: 'slack', name: 'Ops chat', url: 'https://hooks.example.test/services/T0/B0/slack-secret-789' }, admin)).body;
      await s.call('POST', `${p}/alert-channels`, { kind: 'telegram', name: 'Bot', token: 'bot-token-321', chat_id: '-1001', active: false }, admin);
      await s.call('POST', `${p}/alert-channels`, { kind: 'email', name: 'Mail', emails: ['ops@example.test'] }, admin);
      await s.call('POST', `${p}/event-webhooks`, { name: 'Audit sink', url: 'https://sink.example.test/in', secret: 'sign-secret-654', events: ['task_finished', 'template_changed'] }, admin);
      const buildNow = (await s.call('GET', `${p}/templates/${build.id}`, undefined, admin)).body;
      expect((await s.call('PUT', `${p}/templates/${build.id}`, { ...buildNow, alert_channel_ids: [chat.id], alert_on: 'fixed' }, admin)).status).toBe(204);
      // grants on a view: to a custom role, a built-in one, a server role, a member by hand and a member by the directory
      expect((await s.call('POST', `${p}/roles`, { name: 'Operator', slug: 'operator', permissions: 17 }, admin)).status).toBe(201);
      expect((await s.call('POST', '/api/roles', { name: 'Watcher', slug: `watcher_${dialect}`, permissions: 16 }, admin)).status).toBe(201);
      memberId = (await insertUserWithToken(db)).id;
      await db.insertInto('project_user').values({ project_id: f.project.id, user_id: memberId, role: 'guest', created: now() }).execute();
      const grants = [{ role: 'operator', run: true }, { role: 'guest' }, { role: `watcher_${dialect}` }, { user_id: memberId, run: true }];
      expect((await s.call('PUT', `${p}/views/${view.id}/grants`, { grants }, admin)).status).toBe(200);
      await db.insertInto('view_grant').values({ view_id: view.id, role: null, user_id: memberId, can_run: 1, directory: 1 }).execute();
      await db.insertInto('template_grant').values({ template_id: tf.id, role: null, user_id: memberId, can_run: 1, directory: 1 }).execute();
    });
    afterAll(async () => { await s.close(); });

    it('exports every section by name, without ids or secrets', async () => {
      const res = await s.call('GET', `${p}/backup`, undefined, admin);
      expect(res.status).toBe(200);
      const b = res.body;
      expect(b.meta).toMatchObject({ name: 'Fixture', alert: false, max_parallel_tasks: 0 });
      expect(b.keys.map((k: any) => k.name)).toEqual(['Deploy key', 'None', 'Vault pass']);
      expect(b.repositories.find((r: any) => r.name === 'Infra repo')).toEqual({ name: 'Infra repo', git_url: 'git@example.com:infra.git', git_branch: 'main', ssh_key: 'Deploy key', pull_submodules: true });
      const build = b.templates.find((t: any) => t.name === 'Build');
      expect(build).toMatchObject({ type: 'build', start_version: '1.0.0', view: 'Ops', repository: 'Repo', cron: '0 3 * * *' });
      expect(build.vaults).toEqual([{ name: 'prod', type: 'password', vault_key: 'Vault pass', script: null }, { name: null, type: 'script', vault_key: null, script: 'get-client.sh' }]);
      expect(b.templates.find((t: any) => t.name === 'Deploy').build_template).toBe('Build');
      // a url inventory carries its source key (by name) and its sync schedule; a static one neither
      expect(b.inventories.find((i: any) => i.name === 'CMDB')).toMatchObject({ type: 'url', inventory: 'https://cmdb.example.test/hosts', source_key: 'Vault pass', sync_cron: '*/30 * * * *' });
      const prod = b.inventories.find((i: any) => i.name === 'Prod');
      expect([Object.hasOwn(prod, 'source_key'), Object.hasOwn(prod, 'sync_cron')]).toEqual([false, false]);
      expect(b.templates.find((t: any) => t.name === 'Infra').workspaces).toEqual(['Infra - default', 'staging']);
      expect(b.integrations[0]).toMatchObject({ name: 'GitHub push', template: 'Build', auth_secret: 'Vault pass', matchers: [{ name: 'branch' }], extract_values: [{ variable: 'SHA' }] });
      expect(b.workflows).toEqual([expect.objectContaining({
        name: 'Release', start_version: '2.0.0',
        nodes: [
          expect.objectContaining({ key: 1, kind: 'task', template: 'Build', task_params: { limit: 'web' } }),
          expect.objectContaining({ key: 2, kind: 'approval', approval_four_eyes: true, approval_timeout: 60 }),
          expect.objectContaining({ key: 3, kind: 'task', template: 'Deploy', inventory: f.inventory.name, task_params: {} }),
          expect.objectContaining({ key: 4, kind: 'note', note: 'ask ops first' }),
        ],
        edges: [expect.objectContaining({ source: 1, destination: 2 }), expect.objectContaining({ source: 2, destination: 3, input_mode: 'explicit', input_mappings: [{ variable: 'v', output: 'tag' }] })],
      })]);
      expect(b.alert_channels).toEqual([
        { name: 'Ops chat', kind: 'slack', active: true },
        { name: 'Bot', kind: 'telegram', active: false, chat_id: '-1001' },
        { name: 'Mail', kind: 'email', active: true, emails: ['ops@example.test'] },
      ]);
      expect(b.event_webhooks).toEqual([{ name: 'Audit sink', url: 'https://sink.example.test/in', events: ['task_finished', 'template_changed'], active: true }]);
      expect(build.alert_channels).toEqual(['Ops chat']);
      expect([build.suppress_success_alerts, build.suppress_error_alerts, build.alert_fixed]).toEqual([true, false, true]);
      expect(b.templates.find((t: any) => t.name === 'Deploy')).not.toHaveProperty('alert_channels');
      for (const secret of ['slack-secret-789', 'bot-token-321', 'sign-secret-654']) expect(res.text).not.toContain(secret);
      expect(JSON.stringify(b)).not.toMatch(/"id":/);
      const sealed = s.deps.secrets.seal(JSON.stringify({ login: 'deploy', password: 'key-secret-456' }));
      await s.deps.db.updateTable('access_key').set({ secret: sealed }).where('project_id', '=', f.project.id).where('name', '=', 'Vault pass').execute();
      const again = (await s.call('GET', `${p}/backup`, undefined, admin)).text;
      expect(again).not.toContain('key-secret-456');
      expect(again).not.toContain(sealed);
    });

    it('restores a backup and exports it again unchanged (apart from name and aliases)', async () => {
      const first = (await s.call('GET', `${p}/backup`, undefined, admin)).body;
      const restored = await s.call('POST', '/api/projects/restore', { ...first, meta: { ...first.meta, name: 'Restored' } }, admin);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ name: 'Restored', empty_keys: 2 });
      const second = (await s.call('GET', `/api/project/${restored.body.id}/backup`, undefined, admin)).body;
      expect(second.meta.name).toBe('Restored');
      expect(comparable(second)).toEqual(comparable(first));
      const tpl = await s.deps.db.selectFrom('inventory').selectAll().where('project_id', '=', restored.body.id).where('name', '=', 'Infra - default').executeTakeFirstOrThrow();
      expect(tpl.holder_id).not.toBeNull();
      // the url inventory reads its source with the restored project's key, on the same schedule
      const cmdb = await s.deps.db.selectFrom('inventory').select(['source_key_id', 'sync_cron']).where('project_id', '=', restored.body.id).where('name', '=', 'CMDB').executeTakeFirstOrThrow();
      const vault = await s.deps.db.selectFrom('access_key').select('id').where('project_id', '=', restored.body.id).where('name', '=', 'Vault pass').executeTakeFirstOrThrow();
      expect(cmdb).toEqual({ source_key_id: vault.id, sync_cron: '*/30 * * * *' });
      const keys = await s.deps.db.selectFrom('access_key').select('secret').where('project_id', '=', restored.body.id).execute();
      expect(keys.every((k) => k.secret === null)).toBe(true);
      // channels and webhooks come back without their secrets, and the template keeps its choice
      const channels = (await s.call('GET', `/api/project/${restored.body.id}/alert-channels`, undefined, admin)).body;
      expect(channels.map((c: any) => [c.name, c.url_set, c.token_set])).toEqual([['Ops chat', false, false], ['Bot', false, false], ['Mail', false, false]]);
      const hooks = (await s.call('GET', `/api/project/${restored.body.id}/event-webhooks`, undefined, admin)).body;
      expect(hooks.map((h: any) => [h.name, h.secret_set])).toEqual([['Audit sink', false]]);
      const build = (await s.call('GET', `/api/project/${restored.body.id}/templates`, undefined, admin)).body.find((t: any) => t.name === 'Build');
      expect([build.alert_channel_ids, build.alert_on]).toEqual([[channels[0].id], 'fixed']);
    });

    it('carries a view\'s grants to roles (custom, built-in, server) and restore gives them to the restored view', async () => {
      const backup = (await s.call('GET', `${p}/backup`, undefined, admin)).body;
      // grants to members stay behind, by hand or by the directory (which gives them again at the next sign-in), on views and templates alike
      expect(backup.views.find((v: any) => v.title === 'Ops').grants).toEqual([{ role: 'guest', run: false }, { role: 'operator', run: true }, { role: `watcher_${dialect}`, run: false }]);
      expect(backup.views.find((v: any) => v.title === 'Dev')).not.toHaveProperty('grants');
      expect(backup.templates.find((t: any) => t.name === 'Infra')).not.toHaveProperty('grants');
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: 'Restored views' } }, admin);
      expect(restored.status, restored.text).toBe(200);
      const views = (await s.call('GET', `/api/project/${restored.body.id}/views`, undefined, admin)).body;
      const ops = views.find((v: any) => v.title === 'Ops');
      expect(ops.id).not.toBe(opsId);
      expect((await s.call('GET', `/api/project/${restored.body.id}/views/${ops.id}/grants`, undefined, admin)).body).toEqual({ grants: [
        { role: 'guest', user_id: null, run: false }, { role: 'operator', user_id: null, run: true }, { role: `watcher_${dialect}`, user_id: null, run: false },
      ] });
      const dev = views.find((v: any) => v.title === 'Dev');
      expect((await s.call('GET', `/api/project/${restored.body.id}/views/${dev.id}/grants`, undefined, admin)).body).toEqual({ grants: [] });
      const rows = await s.deps.db.selectFrom('view_grant').select('user_id').where('view_id', 'in', views.map((v: any) => v.id)).where('user_id', 'is not', null).execute();
      expect(rows).toEqual([]);
    });

    it('never exports the variable-group password and seals one found in a backup', async () => {
      await s.deps.db.updateTable('environment').set({ password: s.deps.secrets.seal('group-pass-123') }).where('id', '=', f.environment.id).execute();
      const backup = (await s.call('GET', `${p}/backup`, undefined, admin)).body;
      expect(backup.environments.every((e: any) => !('password' in e))).toBe(true);
      const example = semaphoreBackup();
      example.environments[0].password = 'plain-vault-pass';
      const res = await s.call('POST', '/api/projects/restore', example, admin);
      const env = await s.deps.db.selectFrom('environment').selectAll().where('project_id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(env.password).not.toBe('plain-vault-pass');
      expect(s.deps.secrets.open(env.password!)).toBe('plain-vault-pass');
      expect(JSON.stringify((await s.call('GET', `/api/project/${res.body.id}/backup`, undefined, admin)).body)).not.toContain('plain-vault-pass');
    });

    it('restores a backup in the ProjectBackup format of 2.16', async () => {
      const example = semaphoreBackup();
      const res = await s.call('POST', '/api/projects/restore', example, admin);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'edge-lab', alert: true, alert_chat: 'ops-room', type: '', empty_keys: 1 });
      const templates = (await s.call('GET', `/api/project/${res.body.id}/templates`, undefined, admin)).body;
      expect(templates).toHaveLength(1);
      expect(templates[0]).toMatchObject({ name: 'Build', type: 'build', start_version: '2.0.0', working_directory: '.' });
      const schedules = (await s.call('GET', `/api/project/${res.body.id}/schedules`, undefined, admin)).body;
      expect(schedules).toMatchObject([{ cron_format: '* * * * *', tpl_name: 'Build', active: true }]);
      const member = await s.deps.db.selectFrom('project_user').selectAll().where('project_id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(member.role).toBe('owner');
    });

    const broken: [string, (b: any) => void, string | RegExp][] = [
      ['a template whose repository is missing', (b) => { b.templates[0].repository = 'Nope'; }, 'templates[0]: repository "Nope" does not exist'],
      ['a repository whose key is missing', (b) => { b.repositories[0].ssh_key = 'Ghost'; }, 'repositories[0]: ssh_key "Ghost" does not exist'],
      ['an inventory whose become key is missing', (b) => { b.inventories[1].become_key = 'Ghost'; }, 'inventories[1]: become_key "Ghost" does not exist'],
      ['a template whose view is missing', (b) => { b.templates[0].view = 'Nope'; }, 'templates[0]: view "Nope" does not exist'],
      ['two keys with one name', (b) => { b.keys.push({ name: 'None', type: 'none' }); }, 'keys[2]: name "None" is used twice'],
      ['a deploy template without build template', (b) => { b.templates[0].type = 'deploy'; }, 'templates[0]: a deploy template needs a build_template'],
      ['a template failing template validation', (b) => { b.templates[0].playbook = ''; }, 'templates[0]: Playbook filename is required'],
      ['a bad cron', (b) => { b.templates[0].cron = '61 * * * *'; }, /^schedules\[0\]: Cron: /],
      ['an integration with an unknown auth method', (b) => { b.integrations = [{ name: 'i', template: 'Build', auth_method: 'magic' }]; }, /^integrations\[0\]: auth_method: use one of/],
      ['a matcher with an unknown match type', (b) => { b.integrations = [{ name: 'i', template: 'Build', matchers: [{ name: 'm', match_type: 'cookie', method: 'equals', key: 'k', value: 'v' }] }]; }, /^integrations\[0\]\.matchers\[0\]: match_type: use one of/],
      ['an extracted value with an unknown variable type', (b) => { b.integrations = [{ name: 'i', template: 'Build', extract_values: [{ name: 'v', value_source: 'header', key: 'k', variable: 'V', variable_type: 'both' }] }]; }, /^integrations\[0\]\.extract_values\[0\]: variable_type: use one of/],
      ['a url inventory whose source key is missing', (b) => { b.inventories.push({ name: 'Src', type: 'url', inventory: 'https://cmdb.example.test/', source_key: 'Ghost' }); }, 'inventories[3]: source_key "Ghost" does not exist'],
      ['a url inventory with a bad sync schedule', (b) => { b.inventories.push({ name: 'Src', type: 'url', inventory: 'https://cmdb.example.test/', sync_cron: '61 * * * *' }); }, /^inventories\[3\]: Cron: /],
      ['a url inventory reading a file', (b) => { b.inventories.push({ name: 'Src', type: 'url', inventory: 'file:///etc/passwd' }); }, /^inventories\[3\]: inventory: /],
      ['a script inventory without a repository', (b) => { b.inventories.push({ name: 'Src', type: 'script', inventory: 'hosts.py' }); }, 'inventories[3]: repository_id: required for a script inventory'],
      ['a file inventory escaping the repository', (b) => { b.inventories[1].inventory = '../../etc/hosts'; }, 'inventories[1]: the inventory file must stay inside the repository'],
      ['a one-shot schedule without a time', (b) => { b.schedules = [{ template: 'Build', name: 's', type: 'run_at', run_at: 'soon' }]; }, 'schedules[0]: run_at must be a date-time'],
      ['a missing meta name', (b) => { b.meta.name = ' '; }, 'meta.name: required'],
      ['a wrong key type', (b) => { b.keys[0].type = 'gpg'; }, /^keys\.0\.type: /],
      ['a template choosing an alert channel the backup lacks', (b) => { b.templates[0].alert_channels = ['Pager']; }, 'templates[0]: alert channel "Pager" does not exist'],
      ['a view granting a role the backup lacks', (b) => { b.views[0].grants = [{ role: 'ghost', run: true }]; }, 'views[0].grants[0]: no role "ghost" in the backup'],
      ['a view granting one role twice', (b) => { b.views[0].grants = [{ role: 'guest' }, { role: 'guest', run: true }]; }, 'views[0].grants[1]: role "guest" appears twice'],
      ['an event webhook whose URL is not http(s)', (b) => { b.event_webhooks = [{ name: 'w', url: 'file:///etc/passwd', events: ['task_finished'] }]; }, 'event_webhooks[0]: url must be an http:// or https:// URL'],
    ];
    for (const [what, breakIt, message] of broken) {
      it(`refuses ${what} with a path in the message and leaves nothing behind`, async () => {
        const backup = semaphoreBackup();
        breakIt(backup);
        const before = await countProjectRows(s.deps.db);
        const res = await s.call('POST', '/api/projects/restore', backup, admin);
        expect(res.status).toBe(400);
        if (typeof message === 'string') expect(res.body.error).toBe(message);
        else expect(res.body.error).toMatch(message);
        expect(await countProjectRows(s.deps.db)).toEqual(before);
      });
    }

    it('needs manage-resources for the backup and project creation rights for restore', async () => {
      for (const role of ['task_runner', 'guest']) {
        const auth = await insertMember(s.deps.db, f.project.id, role);
        expect((await s.call('GET', `${p}/backup`, undefined, auth)).status).toBe(403);
      }
      const manager = await insertMember(s.deps.db, f.project.id, 'manager');
      expect((await s.call('GET', `${p}/backup`, undefined, manager)).status).toBe(200);
      const outsider = await insertUserWithToken(s.deps.db);
      expect((await s.call('GET', `${p}/backup`, undefined, outsider.auth)).status).toBe(404);
      expect((await s.call('POST', '/api/projects/restore', semaphoreBackup(), outsider.auth)).status).toBe(401);
    });
  });
}
