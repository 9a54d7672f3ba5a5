import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { createApiWorld, type ApiWorld } from '../../support/api-world.ts';

for (const dialect of DIALECTS) {
  describe(`extra SSH keys per template (${dialect})`, () => {
    let s: TestServer;
    let w: ApiWorld;
    let extraKeys: number[];
    const call = (method: string, path: string, body?: unknown) => s.call(method, `${w.base}${path}`, body, w.admin);
    const sshKey = async (name: string) => (await call('POST', '/keys', { name, type: 'ssh', ssh: { login: '', private_key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${name}\n-----END OPENSSH PRIVATE KEY-----` } })).body.id as number;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      w = await createApiWorld(s);
      extraKeys = [await sshKey('Fleet A'), await sshKey('Fleet B')];
    });
    afterAll(async () => { await s?.close(); });

    it('takes a template request as Semaphore 2.20 sends it, extra keys in order, unknown fields ignored', async () => {
      const created = await call('POST', '/templates', {
        project_id: w.ids.project_id, name: 'Fleet deploy', app: 'ansible', playbook: 'site.yml', repository_id: w.ids.repository_id,
        inventory_id: w.ids.inventory_id, environment_id: w.ids.environment_id, ssh_key_ids: [extraKeys[1], extraKeys[0]],
        description: '', arguments: '[]', type: '', view_id: null, vaults: [], survey_vars: [], task_params: {}, not_a_field: true,
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.ssh_key_ids).toEqual([extraKeys[1], extraKeys[0]]);
      expect(created.body).not.toHaveProperty('not_a_field');
      const read = (await call('GET', `/templates/${created.body.id}`)).body;
      expect(read.ssh_key_ids).toEqual([extraKeys[1], extraKeys[0]]);
      // a PUT that leaves them out keeps them; an empty list clears them
      expect((await call('PUT', `/templates/${created.body.id}`, { ...read, ssh_key_ids: undefined, description: 'kept' })).status).toBe(204);
      expect((await call('GET', `/templates/${created.body.id}`)).body.ssh_key_ids).toEqual([extraKeys[1], extraKeys[0]]);
      expect((await call('PUT', `/templates/${created.body.id}`, { ...read, ssh_key_ids: [] })).status).toBe(204);
      expect((await call('GET', `/templates/${created.body.id}`)).body.ssh_key_ids).toEqual([]);
      // older templates list none
      expect((await call('GET', `/templates/${w.ids.template_id}`)).body.ssh_key_ids).toEqual([]);
    });

    it('accepts only SSH keys of the project, each once', async () => {
      const other = await s.call('POST', '/api/projects', { name: `Other ${dialect}` }, w.admin);
      const foreign = (await s.call('POST', `/api/project/${other.body.id}/keys`, { name: 'Theirs', type: 'ssh', ssh: { login: '', private_key: 'x' } }, w.admin)).body.id;
      const base = { name: 'Bad keys', app: 'bash', playbook: 'run.sh', repository_id: w.ids.repository_id, inventory_id: w.ids.inventory_id };
      const refused = async (ssh_key_ids: unknown) => {
        const res = await call('POST', '/templates', { ...base, ssh_key_ids });
        return [res.status, res.body.error];
      };
      expect(await refused([w.ids.login_key_id])).toEqual([400, `ssh_key_ids: key ${w.ids.login_key_id} is not an SSH key`]);
      expect(await refused([foreign])).toEqual([400, `ssh_key_ids: no access key ${foreign} in this project`]);
      expect(await refused([extraKeys[0], extraKeys[0]])).toEqual([400, `ssh_key_ids: key ${extraKeys[0]} is listed twice`]);
      expect(await refused(['one'])).toEqual([400, expect.stringMatching(/^ssh_key_ids/)]);
      expect((await call('GET', '/templates')).body.some((t: { name: string }) => t.name === 'Bad keys')).toBe(false);
    });

    it('counts an extra key as a use of the key: listed in its refs, not deletable while used', async () => {
      const key = await sshKey('Jump host');
      const tpl = (await call('POST', '/templates', {
        name: 'Via jump', app: 'bash', playbook: 'run.sh', repository_id: w.ids.repository_id, inventory_id: w.ids.inventory_id, ssh_key_ids: [key],
      })).body;
      expect((await call('GET', `/keys/${key}/refs`)).body.templates).toEqual([{ id: tpl.id, name: 'Via jump' }]);
      const del = await call('DELETE', `/keys/${key}`);
      expect([del.status, del.body.inUse]).toEqual([400, true]);
      expect((await call('DELETE', `/templates/${tpl.id}`)).status).toBe(204);
      expect((await call('DELETE', `/keys/${key}`)).status).toBe(204);
    });

    it('keeps extra keys in backups by name and restores them', async () => {
      await call('POST', '/templates', {
        name: 'Backed up', app: 'bash', playbook: 'run.sh', repository_id: w.ids.repository_id, inventory_id: w.ids.inventory_id, ssh_key_ids: [extraKeys[0], extraKeys[1]],
      });
      const backup = (await call('GET', '/backup')).body;
      const tpl = backup.templates.find((t: { name: string }) => t.name === 'Backed up');
      expect(tpl.ssh_keys).toEqual(['Fleet A', 'Fleet B']);
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: `Restored ${dialect}` } }, w.admin);
      expect(restored.status, restored.text).toBe(200);
      const again = (await s.call('GET', `/api/project/${restored.body.id}/backup`, undefined, w.admin)).body;
      expect(again.templates.find((t: { name: string }) => t.name === 'Backed up').ssh_keys).toEqual(['Fleet A', 'Fleet B']);
      const misnamed = { ...backup, meta: { ...backup.meta, name: 'Broken' }, templates: backup.templates.map((t: { name: string }) => (t.name === 'Backed up' ? { ...t, ssh_keys: ['Nope'] } : t)) };
      const res = await s.call('POST', '/api/projects/restore', misnamed, w.admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('Nope');
    });
  });
}
