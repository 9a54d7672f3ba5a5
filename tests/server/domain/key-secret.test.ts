import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox, newEncryptionKey } from '../../../src/server/crypto/secret-box.ts';
import { readEnvironmentSecrets, readKeySecret } from '../../../src/server/domain/keys/key-secret.ts';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { createTestProject } from '../../support/project-members.ts';

describe('reading key secrets for the task engine', () => {
  const box = new SecretBox(newEncryptionKey());

  it('opens ssh, login_password, string and none keys', () => {
    expect(readKeySecret(box, { type: 'ssh', secret: box.seal('{"login":"u","passphrase":"p","private_key":"K"}') }))
      .toEqual({ type: 'ssh', login: 'u', passphrase: 'p', private_key: 'K' });
    expect(readKeySecret(box, { type: 'login_password', secret: box.seal('{"login":"u","password":"pw"}') }))
      .toEqual({ type: 'login_password', login: 'u', password: 'pw' });
    expect(readKeySecret(box, { type: 'string', secret: box.seal('v') })).toEqual({ type: 'string', value: 'v' });
    expect(readKeySecret(box, { type: 'none', secret: null })).toEqual({ type: 'none' });
  });

  it('reads a legacy bare private key as an ssh key', () => {
    const pem = '-----BEGIN KEY-----\nabc\n-----END KEY-----\n';
    expect(readKeySecret(box, { type: 'ssh', secret: box.seal(pem) })).toEqual({ type: 'ssh', login: '', passphrase: '', private_key: pem });
    expect(readKeySecret(box, { type: 'ssh', secret: box.seal(pem.trimEnd()) })).toEqual({ type: 'ssh', login: '', passphrase: '', private_key: pem.trimEnd() });
  });

  it('reads a login and password that is not JSON as empty instead of throwing', () => {
    expect(readKeySecret(box, { type: 'login_password', secret: box.seal('ops:hunter2') })).toEqual({ type: 'login_password', login: '', password: '' });
    expect(readKeySecret(box, { type: 'login_password', secret: box.seal('"text"') })).toEqual({ type: 'login_password', login: '', password: '' });
  });
});

for (const dialect of DIALECTS) {
  describe(`reading variable-group secrets (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('splits decrypted secrets into extra vars and environment variables', async () => {
      const { admin, base } = await createTestProject(s);
      const env = await s.call('POST', `${base}/environment`, {
        name: 'E', json: '{}', secrets: [{ type: 'var', name: 'db_pass', secret: 'one' }, { type: 'env', name: 'TOKEN', secret: 'two' }],
      }, admin);
      expect(await readEnvironmentSecrets(s.deps.db, s.deps.secrets, env.body.id)).toEqual({ vars: { db_pass: 'one' }, env: { TOKEN: 'two' } });
    });
  });
}
