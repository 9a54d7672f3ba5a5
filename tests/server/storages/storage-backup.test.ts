import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';

const TOKEN = 'hvs.backup-token-61f0';

for (const dialect of DIALECTS) {
  describe(`backup and restore keep secret storages, keys pointing at them and template JWT settings (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    beforeAll(async () => {
      s = await startTestServer(dialect, { SEMAPHORE_JWT_ENABLED: 'true' });
      admin = await s.login(ADMIN.login, ADMIN.password);
    });
    afterAll(async () => { await s.close(); });

    it('exports the storage without its credential and restores it, with the key\'s reference and the template\'s token settings', async () => {
      const project = (await s.call('POST', '/api/projects', { name: 'Backed up' }, admin)).body;
      const base = `/api/project/${project.id}`;
      const storage = (await s.call('POST', `${base}/secret_storages`, { name: 'Vault', type: 'openbao', params: { url: 'https://bao.example.test', mount: 'kv', auth_method: 'token' }, secret: TOKEN }, admin)).body;
      const key = await s.call('POST', `${base}/keys`, { name: 'Deploy', type: 'login_password', login_password: { login: 'ci' }, source_storage_id: storage.id, source_storage_key: 'ci/deploy#password' }, admin);
      expect(key.status, key.text).toBe(201);
      const repo = (await s.call('POST', `${base}/repositories`, { name: 'R', git_url: '/srv/r', git_branch: 'main', ssh_key_id: key.body.id }, admin)).body;
      const env = (await s.call('POST', `${base}/environment`, { name: 'E', json: '{}' }, admin)).body;
      const tpl = await s.call('POST', `${base}/templates`, { name: 'T', app: 'bash', playbook: 'run.sh', repository_id: repo.id, environment_id: env.id, jwt_enabled: true, jwt_audience: ['vault'], jwt_ttl: '10m' }, admin);
      expect(tpl.status, tpl.text).toBe(201);

      const backup = await s.call('GET', `${base}/backup`, undefined, admin);
      expect(backup.status).toBe(200);
      expect(backup.text).not.toContain(TOKEN);
      expect(backup.body.secret_storages).toEqual([{ name: 'Vault', type: 'openbao', params: expect.objectContaining({ url: 'https://bao.example.test', mount: 'kv', auth_method: 'token' }), readonly: true }]);
      expect(backup.body.keys).toContainEqual({ name: 'Deploy', type: 'login_password', source_storage: 'Vault', source_storage_key: 'ci/deploy#password' });
      expect(backup.body.templates[0]).toMatchObject({ jwt_enabled: true, jwt_audience: ['vault'], jwt_ttl: '10m' });

      const restored = await s.call('POST', '/api/projects/restore', { ...backup.body, meta: { ...backup.body.meta, name: 'Restored' } }, admin);
      expect(restored.status, restored.text).toBe(200);
      const rbase = `/api/project/${restored.body.id}`;
      const [rs] = (await s.call('GET', `${rbase}/secret_storages`, undefined, admin)).body;
      expect(rs).toMatchObject({ name: 'Vault', type: 'openbao', has_secret: false });
      const keys = (await s.call('GET', `${rbase}/keys`, undefined, admin)).body;
      expect(keys.find((k: { name: string }) => k.name === 'Deploy')).toMatchObject({ source_storage_id: rs.id, source_storage_key: 'ci/deploy#password' });
      const [rt] = (await s.call('GET', `${rbase}/templates`, undefined, admin)).body;
      expect(rt).toMatchObject({ jwt_enabled: true, jwt_audience: ['vault'], jwt_ttl: '10m' });

      const bad = await s.call('POST', '/api/projects/restore', { meta: { name: 'Bad' }, keys: [{ name: 'K', type: 'none', source_storage: 'Nowhere' }] }, admin);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('keys[0]: source_storage "Nowhere" does not exist');
    });
  });
}
