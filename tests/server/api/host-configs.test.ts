import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { createTestProject, signInMember } from '../../support/project-members.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nhost-config-test-key-body\n-----END OPENSSH PRIVATE KEY-----\n';

for (const dialect of DIALECTS) {
  describe(`host configs (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let projectId: number;
    let sshKeyId: number;
    let noneKeyId: number;
    const call = (method: string, path: string, body?: unknown) => s.call(method, path, body, admin);

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base, projectId } = await createTestProject(s));
      noneKeyId = (await call('GET', `${base}/keys`)).body[0].id;
      const key = await call('POST', `${base}/keys`, { name: 'Fleet', type: 'ssh', project_id: projectId, ssh: { login: 'deploy', passphrase: '', private_key: PRIVATE_KEY } });
      sshKeyId = key.body.id;
    });
    afterAll(async () => { await s.close(); });

    it("takes Semaphore 2.20's HostConfigRequest unchanged and answers HostConfig, never the key's secret", async () => {
      // the request body as Semaphore's API document gives it
      const created = await call('POST', `${base}/host_configs`, { project_id: projectId, type: 'host', host: 'github.com', ssh_key_id: sshKeyId });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), project_id: projectId, type: 'host', host: 'github.com', ssh_key_id: sshKeyId });
      const id = created.body.id;
      const url = await call('POST', `${base}/host_configs`, { project_id: projectId, type: 'url', host: 'ssh://git@git.example.com/team/', ssh_key_id: sshKeyId, extra: 1 });
      expect(url.status).toBe(201);
      expect((await call('GET', `${base}/host_configs/${id}`)).body).toEqual(created.body);
      const list = await call('GET', `${base}/host_configs`);
      expect(list.body.map((h: { host: string }) => h.host)).toEqual(['github.com', 'ssh://git@git.example.com/team/']);
      expect(list.text).not.toContain('host-config-test-key-body');
      expect((await call('PUT', `${base}/host_configs/${id}`, { id, project_id: projectId, type: 'host', host: '*.internal', ssh_key_id: sshKeyId })).status).toBe(204);
      expect((await call('GET', `${base}/host_configs/${id}`)).body).toMatchObject({ type: 'host', host: '*.internal' });
      expect((await call('DELETE', `${base}/host_configs/${id}`)).status).toBe(204);
      expect((await call('GET', `${base}/host_configs/${id}`)).status).toBe(404);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select('description').where('object_type', '=', 'host_config').where('object_id', '=', id).orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual(['Host config github.com created', 'Host config *.internal updated', 'Host config *.internal deleted']);
      await call('DELETE', `${base}/host_configs/${url.body.id}`);
    });

    it('answers each validation rule with 400 and its message, writing nothing', async () => {
      const other = await createTestProject(s, 'Other');
      const foreignKey = (await s.call('POST', `${other.base}/keys`, { name: 'F', type: 'ssh', ssh: { private_key: PRIVATE_KEY } }, admin)).body.id;
      const valid = { project_id: projectId, type: 'host', host: 'db1.example.com', ssh_key_id: sshKeyId };
      const cases: [unknown, string][] = [
        [{ ...valid, type: 'dns' }, 'type: must be host or url'],
        [{ ...valid, type: undefined }, 'type: '],
        [{ ...valid, host: '' }, 'host: required'],
        [{ ...valid, host: 'a b' }, 'host: must be one SSH host name'],
        [{ ...valid, host: '!prod' }, 'host: must be one SSH host name'],
        [{ ...valid, host: 'x\nIdentityFile /etc/shadow' }, 'host: must be one SSH host name'],
        [{ ...valid, host: '-oProxyCommand=x' }, 'host: must be one SSH host name'],
        [{ ...valid, type: 'url', host: 'https://a b/' }, 'host: must be a git URL'],
        [{ ...valid, ssh_key_id: undefined }, 'ssh_key_id: required'],
        [{ ...valid, ssh_key_id: noneKeyId }, 'ssh_key_id: must be a ssh key'],
        [{ ...valid, ssh_key_id: foreignKey }, 'ssh_key_id: no such key in this project'],
        [{ ...valid, ssh_key_id: 'x' }, 'ssh_key_id: '],
        [{ ...valid, project_id: projectId + 1000 }, 'Project ID in body and URL must be the same'],
      ];
      for (const [body, message] of cases) {
        const res = await call('POST', `${base}/host_configs`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.startsWith(message), `${res.body.error} vs ${message}`).toBe(true);
      }
      expect((await call('POST', `${base}/host_configs`, '{')).status).toBe(400);
      expect((await call('GET', `${base}/host_configs`)).body).toEqual([]);
      expect((await call('PUT', `${base}/host_configs/999999`, valid)).status).toBe(404);
      expect((await call('GET', `${base}/host_configs/abc`)).status).toBe(400);
    });

    it('keeps other projects and non-managers out, and goes away with its key', async () => {
      const created = await call('POST', `${base}/host_configs`, { type: 'host', host: 'web1', ssh_key_id: sshKeyId });
      const other = await createTestProject(s, 'Elsewhere');
      expect((await call('GET', `${other.base}/host_configs/${created.body.id}`)).status).toBe(404);
      const guest = await signInMember(s, projectId, 'guest');
      expect((await s.call('GET', `${base}/host_configs`, undefined, guest)).status).toBe(200);
      expect((await s.call('POST', `${base}/host_configs`, { type: 'host', host: 'web2', ssh_key_id: sshKeyId }, guest)).status).toBe(403);
      expect((await s.call('DELETE', `${base}/host_configs/${created.body.id}`, undefined, guest)).status).toBe(403);
      const key = await call('POST', `${base}/keys`, { name: 'Short-lived', type: 'ssh', ssh: { private_key: PRIVATE_KEY } });
      await call('POST', `${base}/host_configs`, { type: 'host', host: 'web3', ssh_key_id: key.body.id });
      expect((await call('DELETE', `${base}/keys/${key.body.id}`)).status).toBe(204);
      expect((await call('GET', `${base}/host_configs`)).body.map((h: { host: string }) => h.host)).toEqual(['web1']);
    });

    it('stores pull_submodules on repositories: true unless sent false, kept when a PUT leaves it out', async () => {
      const plain = await call('POST', `${base}/repositories`, { name: 'Plain', git_url: 'https://example.com/p.git', git_branch: 'main', ssh_key_id: noneKeyId });
      expect(plain.body.pull_submodules).toBe(true);
      const off = await call('POST', `${base}/repositories`, { name: 'Flat', git_url: 'https://example.com/f.git', git_branch: 'main', ssh_key_id: noneKeyId, pull_submodules: false });
      expect(off.status).toBe(201);
      expect(off.body.pull_submodules).toBe(false);
      const id = off.body.id;
      expect((await call('PUT', `${base}/repositories/${id}`, { id, name: 'Flat 2', git_url: 'https://example.com/f.git', git_branch: 'main', ssh_key_id: noneKeyId })).status).toBe(204);
      expect((await call('GET', `${base}/repositories/${id}`)).body).toMatchObject({ name: 'Flat 2', pull_submodules: false });
      expect((await call('PUT', `${base}/repositories/${id}`, { id, name: 'Flat 2', git_url: 'https://example.com/f.git', git_branch: 'main', ssh_key_id: noneKeyId, pull_submodules: true })).status).toBe(204);
      expect((await call('GET', `${base}/repositories/${id}`)).body.pull_submodules).toBe(true);
      const bad = await call('POST', `${base}/repositories`, { name: 'Bad', git_url: 'https://example.com/b.git', git_branch: 'main', ssh_key_id: noneKeyId, pull_submodules: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/^pull_submodules: /);
    });

    it('carries host configs and pull_submodules through backup and restore, without secrets', async () => {
      const project = await createTestProject(s, 'Backed up');
      const key = await s.call('POST', `${project.base}/keys`, { name: 'Fleet key', type: 'ssh', ssh: { private_key: PRIVATE_KEY } }, admin);
      const none = (await s.call('GET', `${project.base}/keys`, undefined, admin)).body.find((k: { type: string }) => k.type === 'none').id;
      await s.call('POST', `${project.base}/host_configs`, { type: 'url', host: 'git@git.example.com:team/', ssh_key_id: key.body.id }, admin);
      await s.call('POST', `${project.base}/host_configs`, { type: 'host', host: '10.0.0.*', ssh_key_id: key.body.id }, admin);
      await s.call('POST', `${project.base}/repositories`, { name: 'Flat', git_url: 'https://example.com/f.git', git_branch: 'main', ssh_key_id: none, pull_submodules: false }, admin);
      const backup = await s.call('GET', `${project.base}/backup`, undefined, admin);
      expect(backup.status).toBe(200);
      expect(backup.text).not.toContain('host-config-test-key-body');
      expect(backup.body.host_configs).toEqual([
        { type: 'url', host: 'git@git.example.com:team/', ssh_key: 'Fleet key' },
        { type: 'host', host: '10.0.0.*', ssh_key: 'Fleet key' },
      ]);
      expect(backup.body.repositories[0]).toMatchObject({ name: 'Flat', pull_submodules: false });
      const restored = await s.call('POST', '/api/projects/restore', { ...backup.body, meta: { ...backup.body.meta, name: 'Restored' } }, admin);
      expect(restored.status, restored.text).toBe(200);
      const rbase = `/api/project/${restored.body.id}`;
      const keys = (await s.call('GET', `${rbase}/keys`, undefined, admin)).body as { id: number; name: string }[];
      const fleet = keys.find((k) => k.name === 'Fleet key')!;
      expect((await s.call('GET', `${rbase}/host_configs`, undefined, admin)).body).toEqual([
        { id: expect.any(Number), project_id: restored.body.id, type: 'url', host: 'git@git.example.com:team/', ssh_key_id: fleet.id },
        { id: expect.any(Number), project_id: restored.body.id, type: 'host', host: '10.0.0.*', ssh_key_id: fleet.id },
      ]);
      expect((await s.call('GET', `${rbase}/repositories`, undefined, admin)).body[0]).toMatchObject({ name: 'Flat', pull_submodules: false });
      const broken = await s.call('POST', '/api/projects/restore', { ...backup.body, meta: { name: 'Broken' }, host_configs: [{ type: 'host', host: 'x', ssh_key: 'Missing' }] }, admin);
      expect(broken.status).toBe(400);
      expect(broken.body.error).toBe('host_configs[0]: ssh_key "Missing" does not exist');
    });
  });
}
