import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { countResourceRows, createTestProject } from '../../support/project-members.ts';
import { now } from '../../../src/server/lib/time.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`inventories (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let projectId: number;
    let noneKey: number;
    let becomeKey: number;
    let repoId: number;
    const call = (method: string, path: string, body?: unknown) => s.call(method, path, body, admin);

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base, projectId } = await createTestProject(s));
      noneKey = (await call('GET', `${base}/keys`)).body[0].id;
      becomeKey = (await call('POST', `${base}/keys`, { name: 'sudo', type: 'login_password', login_password: { login: 'root', password: 'become-pass-1' } })).body.id;
      repoId = (await call('POST', `${base}/repositories`, { name: 'R', git_url: '/srv/r', ssh_key_id: noneKey })).body.id;
    });
    afterAll(async () => { await s.close(); });

    it('creates every inventory type with 201 and trims content', async () => {
      const bodies = [
        { name: 'Static', type: 'static', inventory: '  localhost ansible_connection=local \n', ssh_key_id: noneKey, become_key_id: becomeKey },
        { name: 'Yaml', type: 'static-yaml', inventory: 'all:\n  hosts: {}', ssh_key_id: noneKey },
        { name: 'File', type: 'file', inventory: 'inventories/prod.ini', ssh_key_id: noneKey, repository_id: repoId },
        { name: 'TF', type: 'terraform-workspace', inventory: 'default', ssh_key_id: noneKey },
        { name: 'Tofu', type: 'tofu-workspace', inventory: 'default', ssh_key_id: noneKey },
      ];
      for (const body of bodies) {
        const res = await call('POST', `${base}/inventory`, { ...body, project_id: projectId });
        expect(res.status, body.name).toBe(201);
        expect(res.body).toMatchObject({ name: body.name, type: body.type, project_id: projectId, ssh_key_id: noneKey });
      }
      const statik = (await call('GET', `${base}/inventory?sort=name`)).body.find((i: { name: string }) => i.name === 'Static');
      expect(statik.inventory).toBe('localhost ansible_connection=local');
      expect(statik.become_key_id).toBe(becomeKey);
    });

    it('filters by app: terraform and tofu see their workspaces, other apps none', async () => {
      const names = async (query: string) => (await call('GET', `${base}/inventory${query}`)).body.map((i: { name: string }) => i.name);
      expect(await names('?app=terraform')).toEqual(['TF']);
      expect(await names('?app=tofu')).toEqual(['Tofu']);
      expect(await names('?app=ansible&sort=name&order=desc')).toEqual(['Yaml', 'Static', 'File']);
      expect(await names('?sort=type&order=asc')).toEqual(['Static', 'Yaml', 'File', 'TF', 'Tofu'].sort((a, b) => {
        const t: Record<string, string> = { Static: 'static', Yaml: 'static-yaml', File: 'file', TF: 'terraform-workspace', Tofu: 'tofu-workspace' };
        return t[a]!.localeCompare(t[b]!);
      }));
    });

    it('filters by template: its workspaces only', async () => {
      const tf = (await call('GET', `${base}/inventory?app=terraform`)).body[0];
      const template = await s.deps.db.insertInto('template').values({
        project_id: projectId, name: 'Infra', app: 'terraform', type: '', playbook: '', description: '', inventory_id: tf.id,
        repository_id: repoId, environment_id: null, arguments: null, allow_override_args_in_task: 0, allow_override_branch_in_task: 0,
        allow_parallel_tasks: 0, start_version: null, build_template_id: null, view_id: null, autorun: 0, git_branch: null,
        survey_vars: '[]', suppress_success_alerts: 0, task_params: '{}', runner_tag: null, working_directory: null, created: now(),
      }).returning('id').executeTakeFirstOrThrow();
      const extra = await call('POST', `${base}/inventory`, { name: 'TF2', type: 'terraform-workspace', inventory: 'staging', ssh_key_id: noneKey });
      await call('POST', `${base}/inventory`, { name: 'TF3', type: 'terraform-workspace', inventory: 'other', ssh_key_id: noneKey });
      await s.deps.db.insertInto('template_inventory').values({ template_id: template.id, inventory_id: extra.body.id }).execute();
      const res = await call('GET', `${base}/inventory?app=terraform&template_id=${template.id}`);
      expect(res.body.map((i: { name: string }) => i.name)).toEqual(['TF', 'TF2']);
    });

    it('ignores a template_id that is no id, as the new-template form sends it', async () => {
      const all = await call('GET', `${base}/inventory?app=bash`);
      const res = await call('GET', `${base}/inventory?app=bash&template_id=new`);
      expect(res.status).toBe(200);
      expect(all.body.length).toBeGreaterThan(0);
      expect(res.body).toEqual(all.body);
    });

    it('answers each validation rule with its message and writes nothing', async () => {
      const other = await createTestProject(s, 'Other');
      const foreignKey = (await s.call('GET', `${other.base}/keys`, undefined, admin)).body[0].id;
      const before = await countResourceRows(s);
      const valid = { name: 'I', type: 'static', inventory: 'localhost', ssh_key_id: noneKey };
      const cases: [unknown, string][] = [
        [{ ...valid, name: '' }, 'name: required'],
        [{ ...valid, type: 'dynamic' }, 'Not supported inventory type'],
        [{ ...valid, ssh_key_id: undefined }, 'ssh_key_id: required'],
        [{ ...valid, ssh_key_id: foreignKey }, 'ssh_key_id: no such key in this project'],
        [{ ...valid, become_key_id: foreignKey }, 'become_key_id: no such key in this project'],
        [{ ...valid, type: 'file', inventory: '' }, 'inventory: path required for a file inventory'],
        [{ ...valid, type: 'file', inventory: '../../etc/hosts' }, 'inventory: must stay inside the repository'],
        [{ ...valid, type: 'file', inventory: 'inv/../../x' }, 'inventory: must stay inside the repository'],
        [{ ...valid, repository_id: 999999 }, 'repository_id: no such repository in this project'],
        [{ ...valid, type: 'file', inventory: 'x.ini', repository_id: 999999 }, 'repository_id: no such repository in this project'],
        [{ ...valid, project_id: projectId + 1 }, 'Project ID in body and URL must be the same'],
        [{ ...valid, ssh_key_id: -1 }, 'ssh_key_id: '],
        [{ ...valid, type: 7 }, 'type: '],
      ];
      for (const [body, message] of cases) {
        const res = await call('POST', `${base}/inventory`, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.error.startsWith(message), `${res.body.error} vs ${message}`).toBe(true);
      }
      const id = (await call('GET', `${base}/inventory?app=ansible`)).body[0].id;
      const put = await call('PUT', `${base}/inventory/${id}`, { ...valid, type: 'dynamic' });
      expect(put.body).toEqual({ error: 'unknown inventory type: dynamic' });
      expect(await countResourceRows(s)).toEqual(before);
    });

    it('takes what Semaphore takes: any project key to become with, and a repository on a static inventory', async () => {
      const created = await call('POST', `${base}/inventory`, { name: 'Lenient', type: 'static', inventory: 'localhost', ssh_key_id: noneKey, become_key_id: noneKey, repository_id: repoId });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ become_key_id: noneKey, repository_id: repoId, type: 'static' });
      expect((await call('GET', `${base}/inventory/${created.body.id}`)).body).toMatchObject({ become_key_id: noneKey, repository_id: repoId });
      expect((await call('DELETE', `${base}/inventory/${created.body.id}`)).status).toBe(204);
    });

    it('updates and deletes an inventory with events', async () => {
      const created = await call('POST', `${base}/inventory`, { name: 'Temp', type: 'static', inventory: 'a', ssh_key_id: noneKey });
      const id = created.body.id;
      expect((await call('PUT', `${base}/inventory/${id}`, { id, name: 'Temp2', type: 'static-yaml', inventory: 'all: {}', ssh_key_id: noneKey })).status).toBe(204);
      expect((await call('GET', `${base}/inventory/${id}`)).body).toMatchObject({ name: 'Temp2', type: 'static-yaml', inventory: 'all: {}' });
      expect((await call('DELETE', `${base}/inventory/${id}`)).status).toBe(204);
      expect((await call('GET', `${base}/inventory/${id}`)).status).toBe(404);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select('description').where('object_type', '=', 'inventory').where('object_id', '=', id).orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual(['Inventory Temp created', 'Inventory Temp2 updated', 'Inventory Temp2 deleted']);
    });
  });
}
