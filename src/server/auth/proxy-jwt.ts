import { createHash } from 'node:crypto';
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import type { Config } from '../config/config.ts';
import type { ProxyAuthConfig } from '../config/auth-config.ts';
import { sendOutgoing } from '../lib/outgoing-http.ts';
import { unauthorized } from '../http/errors.ts';
import { provisionOidcUser } from './external-users.ts';
import { randomUsername, readClaim, readGroups } from './oidc-claims.ts';
import type { Caller } from './caller.ts';

/** What Semaphore accepts: ECDSA and RSA signatures, never `none` nor a shared secret. */
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512'];
/** How long a fetched key set is used before it is fetched again. */
const KEYS_FRESH_MS = 10 * 60 * 1000;
/** A token signed by a key the set lacks fetches the set again, at most this often. */
const REFETCH_GAP_MS = 30 * 1000;
const JWKS_ANSWER_LIMIT = 256 * 1024;
const JWKS_TIMEOUT_MS = 10_000;
/** Tokens already verified, by hash, until they expire: a proxy sends the same one with every request. */
const SIGNED_IN_LIMIT = 1000;

interface KeySet {
  keys: JWTVerifyGetKey;
  fetchedAt: number;
}

const keySets = new Map<string, Promise<KeySet>>();

/** The proxy's key set, fetched through the outgoing-HTTP client and kept for KEYS_FRESH_MS; a failed fetch is not kept. */
function keySet(url: string, refetch = false): Promise<KeySet> {
  const cached = keySets.get(url);
  if (cached && !refetch) {
    return cached.then((set) => (Date.now() - set.fetchedAt < KEYS_FRESH_MS ? set : keySet(url, true)));
  }
  const fetching = fetchKeySet(url);
  keySets.set(url, fetching);
  fetching.catch(() => { if (keySets.get(url) === fetching) keySets.delete(url); });
  return fetching;
}

async function fetchKeySet(url: string): Promise<KeySet> {
  const answer = await sendOutgoing(url, { headers: { accept: 'application/json' }, timeoutMs: JWKS_TIMEOUT_MS, answerLimit: JWKS_ANSWER_LIMIT });
  if (answer.status !== 200) throw new Error(`the JWKS answered ${answer.status}`);
  const parsed = JSON.parse(answer.body.toString('utf8')) as JSONWebKeySet;
  if (!parsed || !Array.isArray(parsed.keys)) throw new Error('the JWKS has no "keys" list');
  return { keys: createLocalJWKSet(parsed), fetchedAt: Date.now() };
}

/** A key lookup that fetches the set again once when the token names a key it does not hold (the proxy rotated). */
function keyLookup(url: string): JWTVerifyGetKey {
  return async (header, token) => {
    const set = await keySet(url);
    try {
      return await set.keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || Date.now() - set.fetchedAt < REFETCH_GAP_MS) throw error;
      return (await keySet(url, true)).keys(header, token);
    }
  };
}

/**
 * The claims of a token the proxy signed: signature by a key of its JWKS, an allowed algorithm,
 * `exp` present and not past, and `iss`/`aud` as configured. Rejects otherwise.
 */
export async function verifyProxyToken(config: ProxyAuthConfig, token: string): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, keyLookup(config.jwks_url), {
    algorithms: ALGORITHMS, requiredClaims: ['exp'],
    ...(config.issuer ? { issuer: config.issuer } : {}), ...(config.audience ? { audience: config.audience } : {}),
  });
  return payload;
}

type SignedIn = Map<string, { userId: number; expiresAt: number }>;
/** per database, as the user ids are */
const signedInByDb = new WeakMap<Db, SignedIn>();

function signedInOf(db: Db): SignedIn {
  let found = signedInByDb.get(db);
  if (!found) signedInByDb.set(db, found = new Map());
  return found;
}

function remember(signedIn: SignedIn, hash: string, userId: number, exp: number): void {
  if (signedIn.size >= SIGNED_IN_LIMIT) {
    for (const [key, entry] of signedIn) if (entry.expiresAt <= Date.now()) signedIn.delete(key);
    if (signedIn.size >= SIGNED_IN_LIMIT) signedIn.delete(signedIn.keys().next().value!);
  }
  signedIn.set(hash, { userId, expiresAt: exp * 1000 });
}

/**
 * The user a verified token names, found or created as an OIDC identity is (provider `jwt`,
 * subject `sub`, else the email), under `external_auth_email_matching`, with the groups claim
 * mapped to roles by `group_mappings`. Null when the token names no email or may not take the
 * user its email names.
 */
async function provisionProxyUser(db: Db, config: Config, claims: JWTPayload): Promise<UserRow | null> {
  const auth = config.proxy_auth;
  const email = readClaim(auth.email_claim, claims);
  if (!email) return null;
  const identity = {
    email,
    username: readClaim(auth.username_claim, claims) || randomUsername(),
    name: readClaim(auth.name_claim, claims) || email,
    groups: readGroups(auth.groups_claim, claims),
  };
  // the proxy vouches for the email unless the token says otherwise
  const verified = claims.email_verified !== false && claims.email_verified !== 'false';
  const subject = typeof claims.sub === 'string' && claims.sub ? claims.sub : email.toLowerCase();
  const outcome = await provisionOidcUser(db, identity, { provider: 'jwt', subject }, verified, config.group_mappings, config.external_auth_email_matching);
  if ('refused' in outcome) {
    console.warn(`[jwt-auth] the proxy's token for ${email} refused: ${outcome.refused}`);
    return null;
  }
  return outcome.user;
}

/**
 * The caller a proxy assertion signs in, or a 401 when the assertion is not a valid token of
 * the proxy (the session cookie and bearer token are then not tried, as in Semaphore).
 */
export async function proxyCaller(db: Db, config: Config, token: string): Promise<Caller> {
  const hash = createHash('sha256').update(token).digest('hex');
  const signedIn = signedInOf(db);
  const known = signedIn.get(hash);
  let user: UserRow | null | undefined;
  if (known && known.expiresAt > Date.now()) {
    user = await db.selectFrom('user').selectAll().where('id', '=', known.userId).executeTakeFirst();
  } else {
    let claims: JWTPayload;
    try {
      claims = await verifyProxyToken(config.proxy_auth, token);
    } catch (error) {
      console.warn(`[jwt-auth] the proxy's token was refused: ${error instanceof Error ? error.message : String(error)}`);
      throw unauthorized();
    }
    user = await provisionProxyUser(db, config, claims);
    if (user) remember(signedIn, hash, user.id, claims.exp!);
  }
  if (!user) throw unauthorized();
  return { user, sessionId: undefined, tokenHash: undefined, tokenPrefix: '', verified: true };
}
