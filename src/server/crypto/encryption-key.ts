import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/database.ts';
import { newEncryptionKey } from './secret-box.ts';

const OPTION_KEY = 'signalbox.access_key_encryption';

/**
 * The key that encrypts secrets: SEMAPHORE_ACCESS_KEY_ENCRYPTION when set; otherwise one made on
 * first start and kept beside the SQLite file (mode 0600) or, on PostgreSQL, in the option table.
 */
export async function resolveEncryptionKey(config: Config, db: Db, warn: (line: string) => void): Promise<string> {
  if (config.access_key_encryption) return config.access_key_encryption;
  if (config.db.dialect === 'sqlite' && config.db.host !== ':memory:') return keyBesideFile(`${config.db.host}.key`, warn);
  return keyInDatabase(db, warn);
}

function keyBesideFile(path: string, warn: (line: string) => void): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const key = newEncryptionKey();
  writeFileSync(path, key + '\n', { mode: 0o600 });
  warn(`SEMAPHORE_ACCESS_KEY_ENCRYPTION is not set: generated a key and stored it in ${path}; back it up with the database`);
  return key;
}

async function keyInDatabase(db: Db, warn: (line: string) => void): Promise<string> {
  const row = await db.selectFrom('option').select('value').where('key', '=', OPTION_KEY).executeTakeFirst();
  if (row) return row.value;
  const key = newEncryptionKey();
  await db.insertInto('option').values({ key: OPTION_KEY, value: key }).onConflict((oc) => oc.column('key').doNothing()).execute();
  warn('SEMAPHORE_ACCESS_KEY_ENCRYPTION is not set: generated a key and stored it in the database option table');
  const stored = await db.selectFrom('option').select('value').where('key', '=', OPTION_KEY).executeTakeFirstOrThrow();
  return stored.value;
}
