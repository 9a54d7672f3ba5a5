import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { insertKey } from '../../support/project-rows.ts';
import { insertProject } from '../../support/fixtures.ts';

/** Execution environments (issue 47) as the API takes and shows them: templates, projects, tasks, backups. */
for (const dialect of DIALECTS) {
  describe(`a template's container settings (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let base: string;
    let registryKey: number;
    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect));
      base = `/api/project/${f.project.id}`;
      registryKey = (await s.call('POST', `${base}/keys`, { name: 'Registry', type: 'login_password', login_password: { login: 'robot', password: 'registry-pass-1' } }, admin)).body.id;
    });
    afterAll(async () => { await s.close(); });

    const bash = (fields: Record<string, unknown> = {}) => ({ name: `T${Math.random()}`, app: 'bash', playbook: 'run.sh', repository_id: f.repository.id, ...fields });

    it('stores and shows every setting; left out, a setting keeps its value', async () => {
      const created = await s.call('POST', `${base}/templates`, bash({
        executor_image: ' quay.io/ansible/awx-ee:24.6.1 ', executor_network: 'none', executor_cpus: 1.5, executor_memory: '512M',
        executor_user: '1000:1000', executor_pull: 'never', executor_registry_key_id: registryKey,
      }), admin);
      expect(created.status, created.text).toBe(201);
      const expected = {
        executor_image: 'quay.io/ansible/awx-ee:24.6.1', executor_network: 'none', executor_cpus: 1.5, executor_memory: '512m',
        executor_user: '1000:1000', executor_pull: 'never', executor_registry_key_id: registryKey,
      };
      expect(created.body).toMatchObject(expected);
      const updated = await s.call('PUT', `${base}/templates/${created.body.id}`, { ...bash(), name: created.body.name, id: created.body.id }, admin);
      expect(updated.status, updated.text).toBe(204);
      expect((await s.call('GET', `${base}/templates/${created.body.id}`, undefined, admin)).body).toMatchObject(expected);
      const cleared = await s.call('PUT', `${base}/templates/${created.body.id}`, {
        ...bash(), name: created.body.name, id: created.body.id, executor_image: '', executor_network: 'bridge', executor_cpus: null, executor_pull: '',
      }, admin);
      expect(cleared.status, cleared.text).toBe(204);
      const after = (await s.call('GET', `${base}/templates/${created.body.id}`, undefined, admin)).body;
      expect(after).toMatchObject({ executor_network: 'bridge', executor_memory: '512m' });
      // unset fields are left out, as Semaphore's answers leave them out
      for (const unset of ['executor_image', 'executor_cpus', 'executor_pull']) expect(after).not.toHaveProperty(unset);
    });

    it('shows a template without settings as running on the host with the defaults', async () => {
      const res = await s.call('GET', `${base}/templates/${f.template.id}`, undefined, admin);
      expect(res.body.executor_network).toBe('bridge');
      for (const unset of ['executor_image', 'executor_cpus', 'executor_memory', 'executor_user', 'executor_pull', 'executor_registry_key_id']) expect(res.body).not.toHaveProperty(unset);
    });

    it.each([
      [{ executor_image: '--privileged' }, 'executor_image: is not an image reference such as registry.example.com/team/ansible:2.16'],
      [{ executor_image: 'alpine -v /:/host' }, 'executor_image: is not an image reference'],
      [{ executor_network: 'container:other' }, 'executor_network: must be bridge, none or host'],
      [{ executor_cpus: 0 }, 'executor_cpus: must be more than 0'],
      [{ executor_cpus: '2' }, 'executor_cpus: must be a number of CPUs such as 1.5'],
      [{ executor_memory: '1g --privileged' }, 'executor_memory: must be a size such as 512m or 2g'],
      [{ executor_user: '--user=root' }, 'executor_user: must be a user such as 1000, 1000:1000 or ansible'],
      [{ executor_pull: 'sometimes' }, 'executor_pull: must be always, if-missing or never'],
    ])('refuses %j with 400 naming the field', async (fields, message) => {
      const res = await s.call('POST', `${base}/templates`, bash(fields), admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
    });

    it('takes as registry key only a login/password key of the project, and keeps a key in use from deletion', async () => {
      const none = await s.call('POST', `${base}/templates`, bash({ executor_registry_key_id: f.key.id }), admin);
      expect([none.status, none.body.error]).toEqual([400, `executor_registry_key_id: key ${f.key.id} is not a login/password key`]);
      const other = await insertProject(s.deps.db, 'Other');
      const foreign = await insertKey(s.deps.db, other.id, 'Theirs', 'login_password');
      const elsewhere = await s.call('POST', `${base}/templates`, bash({ executor_registry_key_id: foreign.id }), admin);
      expect([elsewhere.status, elsewhere.body.error]).toEqual([400, `executor_registry_key_id: no access key ${foreign.id} in this project`]);
      const key = (await s.call('POST', `${base}/keys`, { name: 'Pull', type: 'login_password', login_password: { login: 'a', password: 'b' } }, admin)).body.id;
      expect((await s.call('POST', `${base}/templates`, bash({ executor_registry_key_id: key }), admin)).status).toBe(201);
      const del = await s.call('DELETE', `${base}/keys/${key}`, undefined, admin);
      expect(del.status).toBe(400);
      expect(del.body.inUse).toBe(true);
      const refs = await s.call('GET', `${base}/keys/${key}/refs`, undefined, admin);
      expect(refs.body.templates).toHaveLength(1);
    });

    it("keeps a project's default image, checked like a template's", async () => {
      const project = (await s.call('GET', base, undefined, admin)).body;
      expect(project.executor_image).toBeNull();
      expect((await s.call('PUT', base, { ...project, executor_image: 'localhost/team/ansible:2.19' }, admin)).status).toBe(204);
      expect((await s.call('GET', base, undefined, admin)).body.executor_image).toBe('localhost/team/ansible:2.19');
      // Semaphore's clients send no executor_image: it stays
      expect((await s.call('PUT', base, { name: project.name }, admin)).status).toBe(204);
      expect((await s.call('GET', base, undefined, admin)).body.executor_image).toBe('localhost/team/ansible:2.19');
      const bad = await s.call('PUT', base, { ...project, executor_image: '-it' }, admin);
      expect([bad.status, bad.body.error]).toEqual([400, 'executor_image: is not an image reference such as registry.example.com/team/ansible:2.16']);
      expect((await s.call('PUT', base, { ...project, executor_image: '' }, admin)).status).toBe(204);
      expect((await s.call('GET', base, undefined, admin)).body.executor_image).toBeNull();
    });

    it('carries the settings through a backup and its restore, the registry key by name', async () => {
      await s.call('PUT', base, { name: 'Fixture', executor_image: 'localhost/default:1' }, admin);
      const tpl = await s.call('POST', `${base}/templates`, bash({
        name: 'In a container', executor_image: 'localhost/x:1', executor_network: 'host', executor_cpus: 2, executor_memory: '1g', executor_user: 'ansible',
        executor_pull: 'if-missing', executor_registry_key_id: registryKey,
      }), admin);
      expect(tpl.status, tpl.text).toBe(201);
      const backup = (await s.call('GET', `${base}/backup`, undefined, admin)).body;
      expect(backup.meta.executor_image).toBe('localhost/default:1');
      expect(backup.templates.find((t: { name: string }) => t.name === 'In a container')).toMatchObject({
        executor_image: 'localhost/x:1', executor_network: 'host', executor_cpus: 2, executor_memory: '1g', executor_user: 'ansible',
        executor_pull: 'if-missing', executor_registry_key: 'Registry',
      });
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: 'Restored executor' } }, admin);
      expect(restored.status, restored.text).toBe(200);
      const project = (await s.call('GET', `/api/project/${restored.body.id}`, undefined, admin)).body;
      expect(project.executor_image).toBe('localhost/default:1');
      const templates = (await s.call('GET', `/api/project/${restored.body.id}/templates`, undefined, admin)).body as { name: string; executor_registry_key_id: number }[];
      const copy = templates.find((t) => t.name === 'In a container')!;
      expect(copy).toMatchObject({ executor_image: 'localhost/x:1', executor_network: 'host', executor_cpus: 2, executor_memory: '1g', executor_user: 'ansible', executor_pull: 'if-missing' });
      const key = await s.deps.db.selectFrom('access_key').select(['name', 'project_id']).where('id', '=', copy.executor_registry_key_id).executeTakeFirstOrThrow();
      expect(key).toEqual({ name: 'Registry', project_id: restored.body.id });
    });
  });
}
