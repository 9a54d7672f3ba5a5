import type { Config } from '../config/config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { resolveEncryptionKey } from '../crypto/encryption-key.ts';
import { SecretBox } from '../crypto/secret-box.ts';
import { rotateSigningKey } from '../identity/signing-keys.ts';
import { parseDuration } from '../lib/duration.ts';

const USAGE = 'usage: signalbox jwt rotate [--grace <duration>]   (default grace: jwt.max_ttl)';

function readGrace(args: string[], fallback: number): number | null {
  for (let i = 0; i < args.length; i++) {
    const value = args[i] === '--grace' ? args[i + 1] : args[i]!.startsWith('--grace=') ? args[i]!.slice('--grace='.length) : undefined;
    if (value !== undefined) return parseDuration(value);
  }
  return fallback;
}

/**
 * `signalbox jwt rotate [--grace 24h]`: a new signing key for task tokens. The old key stops
 * signing at once and stays in `/.well-known/jwks.json` for the grace period (by default
 * `jwt.max_ttl`, the longest a token it signed can live), so running tasks' tokens keep verifying.
 */
export async function runJwtCommand(config: Config, args: string[]): Promise<number> {
  if (args[0] !== 'rotate') {
    console.error(USAGE);
    return 2;
  }
  const grace = readGrace(args.slice(1), config.jwt.max_ttl);
  if (grace === null) {
    console.error(`--grace: use a duration such as 1h or 24h; ${USAGE}`);
    return 2;
  }
  const db = openDatabase(config.db);
  try {
    await migrateToLatest(db);
    const box = new SecretBox(await resolveEncryptionKey(config, db, (line) => console.warn(`signalbox: ${line}`)));
    const rotation = await rotateSigningKey(db, box, grace);
    console.log(`new signing key ${rotation.kid}`);
    for (const old of rotation.retired) console.log(`key ${old.kid} no longer signs; published until ${old.until}`);
    return 0;
  } catch (err) {
    console.error(`jwt rotate: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await db.destroy();
  }
}
