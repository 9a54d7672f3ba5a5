import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boot } from '../../../src/server/boot.ts';
import { loadConfig } from '../../../src/server/config/config.ts';
import { newEncryptionKey } from '../../../src/server/crypto/secret-box.ts';
import { DIALECTS, freshDatabase } from '../../support/dialects.ts';

const ROOT = join(import.meta.dirname, '../../..');
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('the server\'s own files are private', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-keys-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('creates the SQLite file, its -wal/-shm, its folder and the generated key owner-only', async () => {
    const dbPath = join(tmp, 'data', 'signalbox.sqlite');
    const config = loadConfig({ SEMAPHORE_DB_HOST: dbPath });
    const lines: string[] = [];
    const deps = await boot(config, (l) => lines.push(l));
    await deps.db.selectFrom('user').selectAll().execute();
    expect(modeOf(join(tmp, 'data'))).toBe('700');
    for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}.key`]) expect(modeOf(file), file).toBe('600');
    expect(lines.some((l) => l.includes(`${dbPath}.key`))).toBe(true);
    await deps.db.destroy();
  });

  // the CLI loads the server from TypeScript sources: at load 20 that alone has taken over 20 s
  it('refuses to start, in one line, when the key file is readable by others', { timeout: 180_000 }, () => {
    const dbPath = join(tmp, 'data', 'signalbox.sqlite');
    chmodSync(`${dbPath}.key`, 0o644);
    const result = spawnSync(process.execPath, ['src/server/cli/main.ts', 'server'], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', SEMAPHORE_DB_HOST: dbPath, SEMAPHORE_PORT: '39999', SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_TMP_PATH: join(tmp, 'work') }, encoding: 'utf8', timeout: 150_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`${dbPath}.key is readable by other users`);
    expect(result.stderr).toContain('chmod 600');
  });
});

for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe('the generated key is never in the database (postgres)', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'signalbox-pgkey-'));
    const drops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const drop of drops) await drop();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('keeps a generated key in a 0600 file beside config.json, not in the option table', async () => {
      const database = await freshDatabase(dialect, tmp);
      drops.push(database.drop);
      const config = loadConfig({});
      config.db = database.settings;
      config.config_path = join(tmp, 'fresh', 'config.json');
      const deps = await boot(config, () => {});
      const keyFile = join(tmp, 'fresh', 'access_key_encryption.key');
      expect(modeOf(keyFile)).toBe('600');
      const sealed = deps.secrets.seal('hello');
      const options = await deps.db.selectFrom('option').selectAll().execute();
      expect(JSON.stringify(options)).not.toContain(readFileSync(keyFile, 'utf8').trim());
      await deps.db.destroy();
      const again = await boot(config, () => {});
      expect(again.secrets.open(sealed)).toBe('hello');
      await again.db.destroy();
    });

    it('moves a key an older version stored in the option table out to the file, with one log line', async () => {
      const database = await freshDatabase(dialect, tmp);
      drops.push(database.drop);
      const config = loadConfig({});
      config.db = database.settings;
      config.config_path = join(tmp, 'moved', 'config.json');
      const first = await boot({ ...config, access_key_encryption: newEncryptionKey() }, () => {});
      const oldKey = newEncryptionKey();
      await first.db.insertInto('option').values({ key: 'signalbox.access_key_encryption', value: oldKey }).execute();
      await first.db.destroy();

      const lines: string[] = [];
      const deps = await boot(config, (l) => lines.push(l));
      const keyFile = join(tmp, 'moved', 'access_key_encryption.key');
      expect(existsSync(keyFile)).toBe(true);
      expect(readFileSync(keyFile, 'utf8').trim()).toBe(oldKey);
      expect(modeOf(keyFile)).toBe('600');
      expect(await deps.db.selectFrom('option').selectAll().where('key', '=', 'signalbox.access_key_encryption').execute()).toEqual([]);
      expect(lines.filter((l) => l.includes('moved'))).toHaveLength(1);
      await deps.db.destroy();
    });
  });
}
