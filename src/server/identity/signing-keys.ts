import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Db } from '../db/database.ts';
import type { SecretBox } from '../crypto/secret-box.ts';

/** The option row holding the sealed key ring (Semaphore's name for its single signing key). */
export const SIGNING_KEY_OPTION = 'jwt_signing_key';
export const SIGNING_ALG = 'ES256';

interface StoredKey {
  kid: string;
  /** the private key as a JWK (only ever inside the sealed option value) */
  jwk: JWK;
  created: string;
  /** set when rotated out: no longer signs, still published until then */
  retire_at?: string;
}

interface KeyRing {
  keys: StoredKey[];
}

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

/** Parsed rings by their sealed text, so a key is imported once per value, not per token. */
const imported = new Map<string, Promise<SigningKey>>();

async function readRing(db: Db, box: SecretBox): Promise<{ ring: KeyRing; sealed: string } | null> {
  const row = await db.selectFrom('option').select('value').where('key', '=', SIGNING_KEY_OPTION).executeTakeFirst();
  if (!row) return null;
  return { ring: JSON.parse(box.open(row.value)) as KeyRing, sealed: row.value };
}

async function newKey(): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y! });
  return { kid, jwk, created: new Date().toISOString() };
}

function signingEntry(ring: KeyRing): StoredKey {
  const current = ring.keys.find((k) => !k.retire_at);
  if (!current) throw new Error('the JWT key ring has no current signing key');
  return current;
}

/**
 * The key that signs task tokens: ECDSA P-256, made on first use and kept in the option table
 * sealed with the access-key encryption key. Servers sharing the database that race to make it
 * all end up with the one that was stored first.
 * @example const { kid, key } = await currentSigningKey(deps.db, deps.secrets);
 */
export async function currentSigningKey(db: Db, box: SecretBox): Promise<SigningKey> {
  let found = await readRing(db, box);
  if (!found) {
    const sealed = box.seal(JSON.stringify({ keys: [await newKey()] } satisfies KeyRing));
    try {
      await db.insertInto('option').values({ key: SIGNING_KEY_OPTION, value: sealed }).execute();
    } catch {
      // another server stored one first: theirs is read below
    }
    found = await readRing(db, box);
    if (!found) throw new Error('the JWT signing key could not be stored');
  }
  const { ring, sealed } = found;
  let key = imported.get(sealed);
  if (!key) {
    const entry = signingEntry(ring);
    key = importJWK(entry.jwk, SIGNING_ALG).then((k) => ({ kid: entry.kid, key: k as CryptoKey }));
    imported.set(sealed, key);
  }
  return key;
}

/** The public half of a stored key, as published in the JWKS. */
function publicJwk(entry: StoredKey): JWK {
  const { kty, crv, x, y } = entry.jwk;
  return { kty, crv, x, y, kid: entry.kid, use: 'sig', alg: SIGNING_ALG };
}

/**
 * The keys a verifier may meet: the current one and those rotated out whose grace period has
 * not ended (tokens they signed may still be valid). Makes the first key when there is none.
 */
export async function publishedKeys(db: Db, box: SecretBox, now = new Date()): Promise<JWK[]> {
  await currentSigningKey(db, box);
  const found = await readRing(db, box);
  return (found?.ring.keys ?? []).filter((k) => !k.retire_at || new Date(k.retire_at) > now).map(publicJwk);
}

export interface Rotation {
  kid: string;
  retired: { kid: string; until: string }[];
}

/**
 * Makes a new signing key; the old one stops signing now but stays published for `graceSeconds`
 * (tokens it signed keep verifying until they expire). Keys whose grace has ended are dropped.
 * @example await rotateSigningKey(db, box, config.jwt.max_ttl);
 */
export async function rotateSigningKey(db: Db, box: SecretBox, graceSeconds: number, now = new Date()): Promise<Rotation> {
  return db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('option').select('value').where('key', '=', SIGNING_KEY_OPTION).executeTakeFirst();
    const ring: KeyRing = row ? (JSON.parse(box.open(row.value)) as KeyRing) : { keys: [] };
    const until = new Date(now.getTime() + graceSeconds * 1000).toISOString();
    const kept = ring.keys.filter((k) => !k.retire_at || new Date(k.retire_at) > now).map((k) => (k.retire_at ? k : { ...k, retire_at: until }));
    const fresh = await newKey();
    const value = box.seal(JSON.stringify({ keys: [fresh, ...kept] } satisfies KeyRing));
    if (row) await tx.updateTable('option').set({ value }).where('key', '=', SIGNING_KEY_OPTION).execute();
    else await tx.insertInto('option').values({ key: SIGNING_KEY_OPTION, value }).execute();
    return { kid: fresh.kid, retired: kept.map((k) => ({ kid: k.kid, until: k.retire_at! })) };
  });
}
