import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, type Config } from '../config/config.ts';
import type { Db } from '../db/database.ts';
import { newEncryptionKey } from './secret-box.ts';

/** Where earlier versions kept a generated key on PostgreSQL; moved out to a file at start. */
const OPTION_KEY = 'signalbox.access_key_encryption';
const KEY_FILE_NAME = 'access_key_encryption.key';

/**
 * The key that encrypts secrets: SEMAPHORE_ACCESS_KEY_ENCRYPTION when set; otherwise one made on
 * first start and kept in a 0600 file, never in the database (a dump would hold the key beside
 * the ciphertext): beside the SQLite file, or beside config.json (else under ./data/) on
 * PostgreSQL. A key an earlier version stored in the option table is moved to that file.
 */
export async function resolveEncryptionKey(config: Config, db: Db, warn: (line: string) => void): Promise<string> {
  if (config.access_key_encryption) return config.access_key_encryption;
  if (config.db.dialect === 'sqlite' && config.db.host === ':memory:') return newEncryptionKey();
  const path = keyFilePath(config);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const moved = await moveKeyOutOfDatabase(db, path);
  if (moved) warn(`moved the generated encryption key out of the database option table into ${path} (0600); back it up with the database`);
  return keyInFile(path, warn);
}

/** @example keyFilePath(config) // './data/signalbox.sqlite.key' */
export function keyFilePath(config: Config): string {
  if (config.db.dialect === 'sqlite') return `${config.db.host}.key`;
  return join(config.config_path ? dirname(config.config_path) : './data', KEY_FILE_NAME);
}

function keyInFile(path: string, warn: (line: string) => void): string {
  if (existsSync(path)) {
    assertPrivate(path);
    return readFileSync(path, 'utf8').trim();
  }
  const key = newEncryptionKey();
  try {
    writeFileSync(path, key + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // another server sharing the folder made it first: use theirs
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return keyInFile(path, warn);
    throw err;
  }
  warn(`SEMAPHORE_ACCESS_KEY_ENCRYPTION is not set: generated a key and stored it in ${path}; back it up with the database`);
  return key;
}

/** A key file others can read would let any local user (or task) decrypt every secret. */
function assertPrivate(path: string): void {
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) throw new ConfigError(`${path} is readable by other users (mode ${mode.toString(8)}); run chmod 600 ${path}`);
}

async function moveKeyOutOfDatabase(db: Db, path: string): Promise<boolean> {
  const row = await db.selectFrom('option').select('value').where('key', '=', OPTION_KEY).executeTakeFirst();
  if (!row) return false;
  if (existsSync(path)) {
    if (readFileSync(path, 'utf8').trim() !== row.value) {
      throw new ConfigError(`${path} holds a different key than the one in the database option table ${OPTION_KEY}; keep the right one and remove the other`);
    }
  } else {
    writeFileSync(path, row.value + '\n', { mode: 0o600, flag: 'wx' });
  }
  await db.deleteFrom('option').where('key', '=', OPTION_KEY).execute();
  return true;
}
