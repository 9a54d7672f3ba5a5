import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { countResourceRows, createTestProject } from '../../support/project-members.ts';
import { expectNoSecrets, recordResponses, storedSecretForms } from '../../support/secrets.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nkey-material-7f3a9c\n-----END OPENSSH PRIVATE KEY-----';
const PASSPHRASE = 'passphrase-55d1e0';
const PASSWORD = 'login-password-c81b2e';

for (const dialect of DIALECTS) {
  describe(`key store (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let projectId: number;
    const { call, responses } = recordResponses(() => s, () => admin);

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base, projectId } = await createTestProject(s));
    });
    afterAll(async () => { await s.close(); });

    it('creates an ssh key with 201, returns it without the secret and stores it sealed', async () => {
      const res = await call('POST', `${base}/keys`, {
        name: 'Deploy', type: 'ssh', project_id: projectId, ssh: { login: 'deployer', passphrase: PASSPHRASE, private_key: PRIVATE_KEY },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'Deploy', type: 'ssh', project_id: projectId, ssh: { login: '', passphrase: '', private_key: '' } });
      const row = await s.deps.db.selectFrom('access_key').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(row.secret).not.toContain('key-material');
      expect(JSON.parse(s.deps.secrets.open(row.secret!))).toEqual({ login: 'deployer', passphrase: PASSPHRASE, private_key: PRIVATE_KEY });
    });

    it('creates a login_password key and never returns the password from get or list', async () => {
      const res = await call('POST', `${base}/keys`, { name: 'Become', type: 'login_password', login_password: { login: 'root', password: PASSWORD } });
      expect(res.status).toBe(201);
      const one = await call('GET', `${base}/keys/${res.body.id}`);
      expect(one.status).toBe(200);
      expect(one.body.login_password).toEqual({ login: '', password: '' });
      const row = await s.deps.db.selectFrom('access_key').select('secret').where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(JSON.parse(s.deps.secrets.open(row.secret!))).toEqual({ login: 'root', password: PASSWORD });
    });

    it('lists keys with empty: true only where no secret is stored, sorted as asked', async () => {
      const res = await call('GET', `${base}/keys?sort=name&order=desc`);
      expect(res.status).toBe(200);
      expect(res.body.map((k: { name: string }) => k.name)).toEqual(['None', 'Deploy', 'Become']);
      const none = res.body.find((k: { name: string }) => k.name === 'None');
      expect(none.empty).toBe(true);
      expect(res.body.find((k: { name: string }) => k.name === 'Deploy').empty).toBeUndefined();
      const byType = await call('GET', `${base}/keys?sort=type&order=asc`);
      expect(byType.body.map((k: { type: string }) => k.type)).toEqual(['login_password', 'none', 'ssh']);
    });

    it('hides variable-group secrets from the key list and from key routes', async () => {
      const env = await call('POST', `${base}/environment`, { name: 'With secret', json: '{}', secrets: [{ operation: 'create', type: 'env', name: 'TOKEN', secret: 'env-secret-1a2b' }] });
      expect(env.status).toBe(201);
      const secretId = env.body.secrets[0].id;
      const list = await call('GET', `${base}/keys`);
      expect(list.body.map((k: { id: number }) => k.id)).not.toContain(secretId);
      expect((await call('GET', `${base}/keys/${secretId}`)).status).toBe(404);
      expect((await call('DELETE', `${base}/keys/${secretId}`)).status).toBe(404);
    });

    it('renames without override_secret and keeps type and secret', async () => {
      const created = await call('POST', `${base}/keys`, { name: 'Keep', type: 'login_password', login_password: { login: 'a', password: PASSWORD } });
      const before = await s.deps.db.selectFrom('access_key').select('secret').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      const res = await call('PUT', `${base}/keys/${created.body.id}`, { id: created.body.id, name: 'Kept', type: 'none', project_id: projectId });
      expect(res.status).toBe(204);
      const row = await s.deps.db.selectFrom('access_key').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: 'Kept', type: 'login_password', secret: before.secret });
    });

    it('replaces type and secret with override_secret, validated as on create', async () => {
      const created = await call('POST', `${base}/keys`, { name: 'Swap', type: 'none' });
      const bad = await call('PUT', `${base}/keys/${created.body.id}`, { name: 'Swap', type: 'ssh', override_secret: true, ssh: { login: 'x' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'ssh.private_key: required for an ssh key' });
      const ok = await call('PUT', `${base}/keys/${created.body.id}`, { name: 'Swap', type: 'ssh', override_secret: true, ssh: { private_key: PRIVATE_KEY } });
      expect(ok.status).toBe(204);
      const row = await s.deps.db.selectFrom('access_key').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      expect(row.type).toBe('ssh');
      expect(JSON.parse(s.deps.secrets.open(row.secret!)).private_key).toBe(PRIVATE_KEY);
    });

    it('answers each validation rule with its message and writes nothing', async () => {
      const before = await countResourceRows(s);
      const cases: [unknown, string][] = [
        [{ type: 'none' }, 'name: '],
        [{ name: '   ', type: 'none' }, 'name: required'],
        [{ name: 'x' }, 'type: required; use none, ssh or login_password'],
        [{ name: 'x', type: 'ssh' }, 'ssh.private_key: required for an ssh key'],
        [{ name: 'x', type: 'login_password', login_password: { login: 'u' } }, 'login_password.password: required for a login_password key'],
        [{ name: 'x', type: 'none', project_id: projectId + 1000 }, 'Project ID in body and URL must be the same'],
        [{ name: 'x', type: 'rsa' }, 'type: '],
        [{ name: 5, type: 'none' }, 'name: '],
        [{ name: 'x'.repeat(256), type: 'none' }, 'name: at most 255 characters'],
        [{ name: 'x', type: 'ssh', ssh: { private_key: 'k'.repeat(70000) } }, 'ssh.private_key: at most 65535 characters'],
      ];
      for (const [body, message] of cases) {
        const res = await call('POST', `${base}/keys`, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.error.startsWith(message), `${res.body.error} vs ${message}`).toBe(true);
      }
      const malformed = await call('POST', `${base}/keys`, '{"name":');
      expect(malformed.status).toBe(400);
      const put = await call('PUT', `${base}/keys/1`, { id: 999999, name: 'x' });
      expect(put.status).toBe(400);
      expect(put.body.error).toBe('ID in body and URL must be the same');
      expect(await countResourceRows(s)).toEqual(before);
    });

    it('answers 404 for keys of another project and 400 for a non-numeric id', async () => {
      const other = await createTestProject(s, 'Other');
      const foreign = await s.call('POST', `${other.base}/keys`, { name: 'Theirs', type: 'none' }, admin);
      expect((await call('GET', `${base}/keys/${foreign.body.id}`)).status).toBe(404);
      expect((await call('PUT', `${base}/keys/${foreign.body.id}`, { name: 'Mine' })).status).toBe(404);
      expect((await call('GET', `${base}/keys/abc`)).status).toBe(400);
    });

    it('deletes an unused key with 204 and records created, updated and deleted events', async () => {
      const created = await call('POST', `${base}/keys`, { name: 'Short lived', type: 'none' });
      await call('PUT', `${base}/keys/${created.body.id}`, { name: 'Short lived' });
      expect((await call('DELETE', `${base}/keys/${created.body.id}`)).status).toBe(204);
      expect((await call('GET', `${base}/keys/${created.body.id}`)).status).toBe(404);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select(['description', 'object_type'])
        .where('object_id', '=', created.body.id).where('object_type', '=', 'key').orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual([
        'Access Key Short lived created', 'Access Key Short lived updated', 'Access Key Short lived deleted',
      ]);
    });

    it('serves every resource list with a trailing slash and answers HEAD', async () => {
      for (const path of ['keys', 'repositories', 'inventory', 'environment']) {
        expect((await call('GET', `${base}/${path}/`)).status, path).toBe(200);
        expect((await s.call('HEAD', `${base}/${path}`, undefined, admin)).status, path).toBe(200);
      }
    });

    it('never shows a secret value in any response', async () => {
      const stored = await storedSecretForms(s.deps.db);
      expect(stored.length).toBeGreaterThan(0);
      expectNoSecrets(responses, ['key-material-7f3a9c', PASSPHRASE, PASSWORD, 'env-secret-1a2b'], stored);
    });
  });
}
