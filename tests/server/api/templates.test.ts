import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { countProjectRows, insertInventory, insertKey, insertRepository, insertTask } from '../../support/project-rows.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`templates (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let base: string;
    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect));
      base = `/api/project/${f.project.id}/templates`;
    });
    afterAll(async () => { await s.close(); });

    const ansible = () => ({
      name: 'Deploy', app: 'ansible', playbook: 'site.yml', inventory_id: f.inventory.id, repository_id: f.repository.id,
      environment_id: f.environment.id,
    });

    it('creates an ansible template with every field and answers 201 with the object', async () => {
      const res = await s.call('POST', base, {
        ...ansible(), description: 'd', arguments: '["-v"]', allow_override_args_in_task: true, allow_override_branch_in_task: true,
        git_branch: 'dev', runner_tag: 'fast', task_params: { allow_debug: true }, suppress_success_alerts: true,
        survey_vars: [{ name: 'size', title: 'Size', type: 'enum', required: true, values: [{ name: 'S', value: 's' }, { name: 'L', value: 'l' }] }],
        vaults: [{ name: 'Prod ', type: 'password', vault_key_id: f.key.id }, { type: 'script', script: 'vault-client.py' }],
      }, admin);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Deploy', app: 'ansible', type: '', playbook: 'site.yml', arguments: '["-v"]', git_branch: 'dev', runner_tag: 'fast',
        allow_override_args_in_task: true, allow_override_branch_in_task: true, suppress_success_alerts: true,
        task_params: { allow_debug: true }, last_task: null, tasks: 0, project_id: f.project.id,
      });
      expect(res.body.survey_vars[0].values).toHaveLength(2);
      expect(res.body.vaults.map((v: any) => [v.name, v.type])).toEqual([['prod', 'password'], [undefined, 'script']]);
      const got = await s.call('GET', `${base}/${res.body.id}`, undefined, admin);
      expect(got.body).toEqual(res.body);
      await settleAuditInbox(s.deps.db);
      const event = await s.deps.db.selectFrom('event').selectAll().where('object_type', '=', 'template').where('object_id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(event.description).toBe(`Template ID ${res.body.id} created`);
    });

    it('accepts type "task" as the empty type and clears start_version/build_template_id for other types', async () => {
      const res = await s.call('POST', base, { ...ansible(), name: 'T', type: 'task', start_version: '1.0', build_template_id: f.template.id }, admin);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: '' });
      expect(res.body).not.toHaveProperty('start_version');
      expect(res.body).not.toHaveProperty('build_template_id');
    });

    it('copies a template when the object read from GET is posted back', async () => {
      const original = (await s.call('GET', `${base}/${f.template.id}`, undefined, admin)).body;
      const res = await s.call('POST', base, { ...original, name: 'Copy of fixture' }, admin);
      expect(res.status).toBe(201);
      expect(res.body.id).not.toBe(original.id);
      expect(res.body).toMatchObject({ name: 'Copy of fixture', playbook: original.playbook, repository_id: original.repository_id });
    });

    const invalid: [string, Record<string, unknown>, string | RegExp][] = [
      ['a missing name', { name: ' ' }, 'Template name is required'],
      ['an unknown app', { app: 'chef' }, 'Invalid app id: chef'],
      ['an ansible template without inventory', { inventory_id: null }, 'Inventory is required for ansible templates'],
      ['a bash template without playbook', { app: 'bash', playbook: '' }, 'Playbook filename is required'],
      ['a template without repository', { repository_id: null }, 'Repository is required'],
      ['a build template without start version', { type: 'build' }, 'Start version is required for a build template'],
      ['a deploy template without build template', { type: 'deploy' }, 'Build template is required for a deploy template'],
      ['a deploy template whose build template is not a build', { type: 'deploy', build_template_id: -1 }, /build_template_id/],
      ['arguments that are not JSON', { arguments: '[-v' }, /^arguments: must be valid JSON/],
      ['arguments that are not an array', { arguments: '{"a":1}' }, 'arguments: must be a JSON array of strings'],
      ['an inventory of another project', { inventory_id: 999999 }, 'inventory_id: no inventory 999999 in this project'],
      ['a view of another project', { view_id: 999999 }, 'view_id: no view 999999 in this project'],
      ['an environment of another project', { environment_id: 999999 }, 'environment_id: no environment 999999 in this project'],
      ['a working directory outside the repository', { working_directory: '../x' }, 'working_directory: must stay inside the repository'],
      ['an enum survey var without values', { survey_vars: [{ name: 'a', title: 'A', type: 'enum', values: [] }] }, 'survey_vars[0]: Enumeration must have values.'],
      ['an enum survey var with duplicate names', { survey_vars: [{ name: 'a', title: 'A', type: 'enum', values: [{ name: 'x', value: '1' }, { name: 'x', value: '2' }] }] }, 'survey_vars[0]: Enumeration values must have unique names.'],
      ['an enum survey var with an empty value name', { survey_vars: [{ name: 'a', title: 'A', type: 'enum', values: [{ name: '', value: '1' }] }] }, 'survey_vars[0]: Value name cannot be empty.'],
      ['two vaults with one name', { vaults: [{ name: 'a', vault_key_id: 0 }, { name: 'A ', vault_key_id: 0 }] }, 'vaults[1]: Vault name must be unique'],
      ['two default vaults', { vaults: [{ type: 'script', script: 'a-client' }, { name: '', type: 'script', script: 'b-client' }] }, 'vaults[1]: Only one default (unnamed) vault is allowed'],
      ['a vault without type', { vaults: [{ name: 'a', type: '' }] }, 'vaults[0]: Vault type is required'],
      ['a password vault without key', { vaults: [{ name: 'a', type: 'password' }] }, 'vaults[0]: Vault password key is required'],
      ['a script vault without script', { vaults: [{ name: 'a', type: 'script' }] }, 'vaults[0]: Vault script is required'],
      ['a script vault not named *-client', { vaults: [{ name: 'a', type: 'script', script: 'vault.py' }] }, /^vaults\[0\]: Vault script name must end with -client/],
      ['a wrong field type', { autorun: 'yes' }, /^autorun: /],
    ];
    for (const [what, patch, message] of invalid) {
      it(`refuses ${what} with 400 and writes nothing`, async () => {
        const body = { ...ansible(), ...patch } as Record<string, any>;
        if (Array.isArray(body.vaults)) body.vaults = body.vaults.map((v: any) => (v.vault_key_id === 0 ? { ...v, vault_key_id: f.key.id } : v));
        if (body.build_template_id === -1) body.build_template_id = f.template.id;
        const before = await countProjectRows(s.deps.db);
        const res = await s.call('POST', base, body, admin);
        expect(res.status).toBe(400);
        if (typeof message === 'string') expect(res.body.error).toBe(message);
        else expect(res.body.error).toMatch(message);
        expect(await countProjectRows(s.deps.db)).toEqual(before);
      });
    }

    it('takes what Semaphore takes: a nameless survey variable, a script vault with any key id, a vault id unknown to it', async () => {
      const res = await s.call('POST', base, {
        ...ansible(), name: 'Lenient',
        survey_vars: [{ name: '', title: '', description: '', type: 'int', required: false, values: [{ name: '', value: '' }] }],
        vaults: [{ id: -100000000, name: 'default', type: 'script', vault_key_id: -100000000, script: 'path/to/script-client.py' }],
      }, admin);
      expect(res.status).toBe(201);
      expect(res.body.survey_vars).toMatchObject([{ name: '', title: '', type: 'int' }]);
      expect(res.body.vaults).toMatchObject([{ name: 'default', type: 'script', script: 'path/to/script-client.py' }]);
      expect(res.body.vaults[0]).not.toHaveProperty('vault_key_id');
      expect(res.body.vaults[0].id).toBeGreaterThan(0);
      const badKey = await s.call('POST', base, { ...ansible(), name: 'Bad key', vaults: [{ name: 'x', type: 'password', vault_key_id: -5 }] }, admin);
      expect(badKey.status).toBe(400);
    });

    it('creates build and deploy templates and keeps type-specific fields', async () => {
      const build = await s.call('POST', base, { ...ansible(), name: 'Build', type: 'build', start_version: '1.0.0' }, admin);
      expect(build.status).toBe(201);
      expect(build.body.start_version).toBe('1.0.0');
      const deploy = await s.call('POST', base, { ...ansible(), name: 'Deploy prod', type: 'deploy', build_template_id: build.body.id, autorun: true }, admin);
      expect(deploy.status).toBe(201);
      expect(deploy.body).toMatchObject({ build_template_id: build.body.id, autorun: true });
      // left out when unset, as Semaphore's answer does
      expect(deploy.body).not.toHaveProperty('start_version');
      expect(build.body).not.toHaveProperty('build_template_id');
      const refs = await s.call('GET', `${base}/${build.body.id}/refs`, undefined, admin);
      expect(refs.body.templates).toEqual([{ id: deploy.body.id, name: 'Deploy prod' }]);
      const retype = await s.call('PUT', `${base}/${build.body.id}`, { type: '' }, admin);
      expect(retype.body).toEqual({ error: 'type: deploy template "Deploy prod" deploys the builds of this template' });
      const del = await s.call('DELETE', `${base}/${build.body.id}`, undefined, admin);
      expect(del.status).toBe(400);
      expect(del.body.inUse).toBe(true);
    });

    it('updates with PUT (204), keeps omitted fields, and refuses a body id that differs', async () => {
      const created = (await s.call('POST', base, { ...ansible(), name: 'Upd', description: 'keep me' }, admin)).body;
      const put = await s.call('PUT', `${base}/${created.id}`, { ...created, name: 'Updated', arguments: '' }, admin);
      expect(put.status).toBe(204);
      const got = (await s.call('GET', `${base}/${created.id}`, undefined, admin)).body;
      expect(got).toMatchObject({ name: 'Updated', description: 'keep me', arguments: null });
      const partial = await s.call('PUT', `${base}/${created.id}`, { name: 'Partial' }, admin);
      expect(partial.status).toBe(204);
      expect((await s.call('GET', `${base}/${created.id}`, undefined, admin)).body.playbook).toBe('site.yml');
      const mismatch = await s.call('PUT', `${base}/${created.id}`, { ...created, id: created.id + 1000 }, admin);
      expect(mismatch.status).toBe(400);
      const moved = await s.call('PUT', `${base}/${created.id}`, { ...created, project_id: f.project.id + 1000 }, admin);
      expect(moved.status).toBe(400);
      expect(moved.body.error).toBe('Template cannot be moved to another project');
    });

    it('keeps vault ids on update, adds new vaults and drops the ones left out', async () => {
      const created = (await s.call('POST', base, { ...ansible(), name: 'Vaulted', vaults: [{ name: 'a', vault_key_id: f.key.id }, { name: 'b', vault_key_id: f.key.id }] }, admin)).body;
      const [a] = created.vaults;
      const put = await s.call('PUT', `${base}/${created.id}`, { vaults: [{ ...a, name: 'a2' }, { name: 'c', type: 'script', script: 'c-client' }] }, admin);
      expect(put.status).toBe(204);
      const vaults = (await s.call('GET', `${base}/${created.id}`, undefined, admin)).body.vaults;
      expect(vaults.map((v: any) => v.name)).toEqual(['a2', 'c']);
      expect(vaults[0].id).toBe(a.id);
      const foreign = await s.call('PUT', `${base}/${created.id}`, { vaults: [{ id: 999999, name: 'x', vault_key_id: f.key.id }] }, admin);
      expect(foreign.status).toBe(204);
      expect((await s.call('GET', `${base}/${created.id}`, undefined, admin)).body.vaults.map((v: any) => v.name)).toEqual(['x']);
    });

    it('drops a kept working directory when the template stops being ansible, but refuses one sent for bash', async () => {
      const created = (await s.call('POST', base, { ...ansible(), name: 'Moving', working_directory: 'play' }, admin)).body;
      expect(created.working_directory).toBe('play');
      expect((await s.call('PUT', `${base}/${created.id}`, { app: 'bash', playbook: 'run.sh' }, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${created.id}`, undefined, admin)).body.working_directory).toBeNull();
      const sent = await s.call('PUT', `${base}/${created.id}`, { working_directory: 'x' }, admin);
      expect(sent.body).toEqual({ error: 'working_directory: only ansible templates have a working directory' });
    });

    it('sets the description alone with PUT /description', async () => {
      const res = await s.call('PUT', `${base}/${f.template.id}/description`, { description: 'inline' }, admin);
      expect(res.status).toBe(204);
      expect((await s.call('GET', `${base}/${f.template.id}`, undefined, admin)).body.description).toBe('inline');
    });

    it('auto-creates the default workspace of a terraform template and guards it', async () => {
      const res = await s.call('POST', base, { name: 'Infra', app: 'terraform', repository_id: f.repository.id }, admin);
      expect(res.status).toBe(201);
      const inv = await s.deps.db.selectFrom('inventory').selectAll().where('id', '=', res.body.inventory_id).executeTakeFirstOrThrow();
      expect(inv).toMatchObject({ name: 'Infra - default', type: 'terraform-workspace', inventory: 'default', holder_id: res.body.id });
      const tofu = await s.call('POST', base, { name: 'Tofu', app: 'tofu', repository_id: f.repository.id }, admin);
      const tofuInv = await s.deps.db.selectFrom('inventory').selectAll().where('id', '=', tofu.body.inventory_id).executeTakeFirstOrThrow();
      expect(tofuInv).toMatchObject({ name: 'Tofu - default', type: 'tofu-workspace' });

      const path = `${base}/${res.body.id}/inventory`;
      expect((await s.call('POST', `${path}/${inv.id}/detach`, undefined, admin)).body).toEqual({ error: 'The default workspace cannot be detached' });
      const staging = await insertInventory(s.deps.db, f.project.id, { name: 'staging', type: 'terraform-workspace', inventory: 'staging' });
      expect((await s.call('POST', `${path}/${staging.id}/attach`, undefined, admin)).status).toBe(204);
      const attached = await s.deps.db.selectFrom('template_inventory').select('inventory_id').where('template_id', '=', res.body.id).orderBy('inventory_id').execute();
      expect(attached.map((a) => a.inventory_id)).toEqual([inv.id, staging.id]);
      expect((await s.call('POST', `${path}/${staging.id}/set_default`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${res.body.id}`, undefined, admin)).body.inventory_id).toBe(staging.id);
      expect((await s.call('POST', `${path}/${staging.id}/detach`, undefined, admin)).status).toBe(400);
      expect((await s.call('POST', `${path}/${inv.id}/detach`, undefined, admin)).status).toBe(204);
      expect((await s.call('POST', `${path}/${f.inventory.id}/attach`, undefined, admin)).body).toEqual({ error: 'The inventory is not a workspace' });
      expect((await s.call('POST', `${path}/999999/attach`, undefined, admin)).status).toBe(404);
    });

    it('lists tasks newest first with last_task, count, limits and stats', async () => {
      const tpl = (await s.call('POST', base, { ...ansible(), name: 'With tasks' }, admin)).body;
      const a = await insertTask(s.deps.db, { projectId: f.project.id, templateId: tpl.id, status: 'success', created: '2026-11-20T10:00:00.000Z' });
      await insertTask(s.deps.db, { projectId: f.project.id, templateId: tpl.id, status: 'error', created: '2026-11-20T11:00:00.000Z' });
      const c = await insertTask(s.deps.db, { projectId: f.project.id, templateId: tpl.id, status: 'success', created: '2026-11-21T09:00:00.000Z' });
      const got = (await s.call('GET', `${base}/${tpl.id}`, undefined, admin)).body;
      expect(got.tasks).toBe(3);
      expect(got.last_task).toMatchObject({ id: c.id, status: 'success', tpl_alias: 'With tasks', tpl_app: 'ansible' });
      const list = await s.call('GET', `${base}/${tpl.id}/tasks`, undefined, admin);
      expect(list.body.map((t: any) => t.id)).toEqual([c.id, c.id - 1, a.id]);
      expect((await s.call('GET', `${base}/${tpl.id}/tasks/last?limit=2`, undefined, admin)).body).toHaveLength(2);
      expect((await s.call('GET', `${base}/${tpl.id}/tasks?status=success&limit=20`, undefined, admin)).body.map((t: any) => t.id)).toEqual([c.id, a.id]);
      const stats = await s.call('GET', `${base}/${tpl.id}/stats?start=2026-11-01`, undefined, admin);
      expect(stats.body).toEqual([
        { date: '2026-11-20', count_by_status: { success: 1, error: 1, stopped: 0 } },
        { date: '2026-11-21', count_by_status: { success: 1, error: 0, stopped: 0 } },
      ]);
      const projectStats = await s.call('GET', `/api/project/${f.project.id}/stats?start=2026-11-21&end=2026-11-21`, undefined, admin);
      expect(projectStats.body).toEqual([{ date: '2026-11-21', count_by_status: { success: 1, error: 0, stopped: 0 } }]);
      expect((await s.call('GET', `/api/project/${f.project.id}/stats?start=yesterday`, undefined, admin)).status).toBe(400);
    });

    it('filters the list by app and deletes a template with its tasks', async () => {
      const bash = await s.call('GET', `${base}?app=terraform`, undefined, admin);
      expect(bash.body.every((t: any) => t.app === 'terraform')).toBe(true);
      const tpl = (await s.call('POST', base, { ...ansible(), name: 'Doomed' }, admin)).body;
      await insertTask(s.deps.db, { projectId: f.project.id, templateId: tpl.id, status: 'success' });
      expect((await s.call('DELETE', `${base}/${tpl.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${tpl.id}`, undefined, admin)).status).toBe(404);
      expect(await s.deps.db.selectFrom('task').select('id').where('template_id', '=', tpl.id).execute()).toEqual([]);
    });

    it('records update and delete events with the reference wording and sorts the list on request', async () => {
      const tpl = (await s.call('POST', base, { ...ansible(), name: 'zz evented' }, admin)).body;
      await s.call('PUT', `${base}/${tpl.id}`, { description: 'changed' }, admin);
      await s.call('DELETE', `${base}/${tpl.id}`, undefined, admin);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select(['description', 'user_id', 'project_id']).where('object_type', '=', 'template').where('object_id', '=', tpl.id).orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual([`Template ID ${tpl.id} created`, `Template ID ${tpl.id} updated`, `Template ID ${tpl.id} deleted`]);
      expect(events.every((e) => e.project_id === f.project.id && e.user_id !== null)).toBe(true);
      const desc = (await s.call('GET', `${base}?sort=name&order=desc`, undefined, admin)).body.map((t: any) => t.name);
      const asc = (await s.call('GET', `${base}?sort=name`, undefined, admin)).body.map((t: any) => t.name);
      expect(new Set(asc).size).toBe(asc.length);
      expect(desc).toEqual([...asc].reverse());
    });

    it('refuses references of another project', async () => {
      const other = await s.deps.db.insertInto('project').values({ name: 'Other', created: '2026-01-01T00:00:00.000Z', alert: 0, alert_chat: null, max_parallel_tasks: 0, type: '' }).returningAll().executeTakeFirstOrThrow();
      const key = await insertKey(s.deps.db, other.id, 'k');
      const repo = await insertRepository(s.deps.db, other.id, key.id);
      const res = await s.call('POST', base, { ...ansible(), repository_id: repo.id }, admin);
      expect(res.body).toEqual({ error: `repository_id: no repository ${repo.id} in this project` });
      const vault = await s.call('POST', base, { ...ansible(), vaults: [{ name: 'x', vault_key_id: key.id }] }, admin);
      expect(vault.body).toEqual({ error: `vaults[0].vault_key_id: no access key ${key.id} in this project` });
    });
  });
}
