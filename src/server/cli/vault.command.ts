import type { Config } from '../config/config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { resolveEncryptionKey } from '../crypto/encryption-key.ts';
import { SecretBox } from '../crypto/secret-box.ts';
import { rekeySecrets } from '../crypto/rekey-secrets.ts';

const USAGE = 'usage: signalbox vault rekey --old-key <base64 key>';

function readOldKey(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--old-key') return args[i + 1];
    if (args[i]!.startsWith('--old-key=')) return args[i]!.slice('--old-key='.length);
  }
  return undefined;
}

/**
 * `signalbox vault rekey --old-key <base64>`: re-encrypts every stored secret from the old key
 * to the current one (SEMAPHORE_ACCESS_KEY_ENCRYPTION or the generated key), all or nothing.
 */
export async function runVaultCommand(config: Config, args: string[]): Promise<number> {
  if (args[0] !== 'rekey') {
    console.error(USAGE);
    return 2;
  }
  const oldKey = readOldKey(args.slice(1));
  if (!oldKey) {
    console.error(`--old-key: required; ${USAGE}`);
    return 2;
  }
  let oldBox: SecretBox;
  try {
    oldBox = new SecretBox(oldKey);
  } catch {
    console.error('--old-key: not allowed; use the base64-encoded 32-byte key the secrets were encrypted with');
    return 2;
  }
  const db = openDatabase(config.db);
  try {
    await migrateToLatest(db);
    const current = new SecretBox(await resolveEncryptionKey(config, db, (line) => console.warn(`signalbox: ${line}`)));
    const result = await rekeySecrets(db, oldBox, current);
    console.log(`re-encrypted ${result.rekeyed} secret(s); ${result.alreadyCurrent} already used the current key`);
    return 0;
  } catch (err) {
    console.error(`vault rekey: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await db.destroy();
  }
}
