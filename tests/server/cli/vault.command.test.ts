import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { createTestProject } from '../../support/project-members.ts';
import { SecretBox, newEncryptionKey } from '../../../src/server/crypto/secret-box.ts';
import { currentSigningKey } from '../../../src/server/identity/signing-keys.ts';

const OLD_KEY = newEncryptionKey();
const NEW_KEY = newEncryptionKey();

/** Runs the real `signalbox` CLI against the test server's database with the given current key. */
function runCli(s: TestServer, args: string[], currentKey: string) {
  const db = s.config.db;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '', SEMAPHORE_DB_DIALECT: db.dialect, SEMAPHORE_DB_HOST: db.host, SEMAPHORE_ACCESS_KEY_ENCRYPTION: currentKey,
  };
  if (db.user) env.SEMAPHORE_DB_USER = db.user;
  if (db.name) env.SEMAPHORE_DB = db.name;
  return spawnSync(process.execPath, ['src/server/cli/main.ts', ...args], { env, encoding: 'utf8', timeout: 60_000 });
}

for (const dialect of DIALECTS) {
  describe(`signalbox vault rekey (${dialect})`, () => {
    let s: TestServer;
    const sealedNow = async () => {
      const keys = await s.deps.db.selectFrom('access_key').select(['id', 'secret']).where('secret', 'is not', null).orderBy('id').execute();
      const groups = await s.deps.db.selectFrom('environment').select(['id', 'password']).where('password', 'is not', null).orderBy('id').execute();
      const storages = await s.deps.db.selectFrom('secret_storage').select('secret').where('secret', 'is not', null).orderBy('id').execute();
      const signing = await s.deps.db.selectFrom('option').select('value').where('key', '=', 'jwt_signing_key').execute();
      return [...keys.map((k) => k.secret!), ...groups.map((g) => g.password!), ...storages.map((r) => r.secret!), ...signing.map((r) => r.value)];
    };

    beforeAll(async () => {
      s = await startTestServer(dialect, { SEMAPHORE_ACCESS_KEY_ENCRYPTION: OLD_KEY });
      const { admin, base } = await createTestProject(s);
      await s.call('POST', `${base}/keys`, { name: 'ssh', type: 'ssh', ssh: { private_key: 'rekey-private-key' } }, admin);
      await s.call('POST', `${base}/keys`, { name: 'lp', type: 'login_password', login_password: { login: 'u', password: 'rekey-password' } }, admin);
      await s.call('POST', `${base}/environment`, { name: 'E', json: '{}', password: 'rekey-group-password', secrets: [{ type: 'env', name: 'T', secret: 'rekey-env-secret' }] }, admin);
      // a secret storage's token and the task token signing key are sealed with the same key
      await s.call('POST', `${base}/secret_storages`, { name: 'V', type: 'vault', params: { url: 'http://127.0.0.1:9' }, secret: 'rekey-storage-token' }, admin);
      await currentSigningKey(s.deps.db, s.deps.secrets);
    });
    afterAll(async () => { await s.close(); });

    it('refuses without --old-key or with a malformed one (exit 2), changing nothing', async () => {
      const before = await sealedNow();
      const missing = runCli(s, ['vault', 'rekey'], NEW_KEY);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toContain('--old-key: required');
      const malformed = runCli(s, ['vault', 'rekey', '--old-key', 'not-a-key'], NEW_KEY);
      expect(malformed.status).toBe(2);
      expect(await sealedNow()).toEqual(before);
    });

    it('fails (exit 1) and changes nothing when the old key does not open the secrets', async () => {
      const before = await sealedNow();
      const res = runCli(s, ['vault', 'rekey', '--old-key', newEncryptionKey()], NEW_KEY);
      expect(res.status).toBe(1);
      expect(res.stderr).toContain('opens with neither the old nor the current key');
      expect(await sealedNow()).toEqual(before);
    });

    it('re-encrypts every secret from the old key to the current one, and a second run is harmless', async () => {
      const before = await sealedNow();
      expect(before).toHaveLength(6);
      const res = runCli(s, ['vault', 'rekey', '--old-key', OLD_KEY], NEW_KEY);
      expect(res.stderr).toBe('');
      expect(res.status).toBe(0);
      expect(res.stdout).toContain('re-encrypted 6 secret(s)');
      const after = await sealedNow();
      const oldBox = new SecretBox(OLD_KEY);
      const newBox = new SecretBox(NEW_KEY);
      expect(after.map((v) => newBox.open(v))).toEqual(before.map((v) => oldBox.open(v)));
      for (const v of after) expect(() => oldBox.open(v)).toThrow();
      const again = runCli(s, ['vault', 'rekey', '--old-key', OLD_KEY], NEW_KEY);
      expect(again.status).toBe(0);
      expect(again.stdout).toContain('re-encrypted 0 secret(s); 6 already used the current key');
    });
  });
}
