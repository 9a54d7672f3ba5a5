import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { Delivery } from './delivery.ts';
import type { IntegrationRow } from './integration.repository.ts';

interface KeySecret {
  login: string;
  password: string;
}

/**
 * Checks a delivery against the integration's auth method; returns why it was refused, or null.
 * The secret is the `password` of the login_password key named by `auth_secret_id` (basic also
 * uses its `login`). Every comparison is constant-time.
 * @example await refuseDelivery(deps, integration, delivery) // 'signature mismatch' | null
 */
export async function refuseDelivery(deps: Deps, integration: IntegrationRow, delivery: Delivery): Promise<string | null> {
  const method = integration.auth_method;
  if (method === '' || method === 'none') return null;
  if (!['github', 'bitbucket', 'hmac', 'token', 'basic'].includes(method)) return `unknown auth method ${method}`;
  const secret = await loadSecret(deps, integration);
  if (!secret) return `no secret key set for auth method ${method}`;
  switch (method) {
    case 'github': return checkSignature(delivery, 'X-Hub-Signature-256', secret, ['sha256']);
    case 'bitbucket': return checkSignature(delivery, 'X-Hub-Signature', secret, ['sha256', 'sha1']);
    case 'hmac': return checkBareHmac(delivery, integration.auth_header ?? '', secret);
    case 'token': return checkToken(delivery, integration.auth_header ?? '', secret);
    default: return checkBasic(delivery, secret);
  }
}

async function loadSecret(deps: Deps, integration: IntegrationRow): Promise<KeySecret | null> {
  if (integration.auth_secret_id === null) return null;
  const key = await deps.db.selectFrom('access_key').select('secret')
    .where('id', '=', integration.auth_secret_id).where('project_id', '=', integration.project_id).executeTakeFirst();
  if (!key?.secret) return null;
  try {
    const parsed = JSON.parse(deps.secrets.open(key.secret)) as Partial<KeySecret>;
    return { login: String(parsed.login ?? ''), password: String(parsed.password ?? '') };
  } catch {
    return null;
  }
}

/** `<algorithm>=<hex HMAC of the raw body>` in the named header (GitHub, Bitbucket). */
function checkSignature(delivery: Delivery, header: string, secret: KeySecret, algorithms: string[]): string | null {
  const given = delivery.headers.get(header);
  if (given === null) return `missing header ${header}`;
  const [algorithm = '', signature = ''] = given.split('=', 2);
  if (!algorithms.includes(algorithm)) return `unsupported signature algorithm in ${header}`;
  return safeEqual(signature.toLowerCase(), hmacHex(algorithm, secret.password, delivery.body)) ? null : 'signature mismatch';
}

function checkBareHmac(delivery: Delivery, header: string, secret: KeySecret): string | null {
  if (!header) return 'auth_header is not set for hmac authentication';
  const given = delivery.headers.get(header);
  if (given === null) return `missing header ${header}`;
  return safeEqual(given.trim().toLowerCase(), hmacHex('sha256', secret.password, delivery.body)) ? null : 'signature mismatch';
}

function checkToken(delivery: Delivery, header: string, secret: KeySecret): string | null {
  if (!header) return 'auth_header is not set for token authentication';
  const given = delivery.headers.get(header);
  if (given === null) return `missing header ${header}`;
  return safeEqual(given, secret.password) ? null : 'token mismatch';
}

function checkBasic(delivery: Delivery, secret: KeySecret): string | null {
  const given = delivery.headers.get('Authorization');
  if (given === null) return 'missing header Authorization';
  const match = /^Basic\s+(\S+)$/i.exec(given);
  if (!match) return 'Authorization is not Basic';
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const expected = `${secret.login}:${secret.password}`;
  return safeEqual(decoded, expected) ? null : 'credentials mismatch';
}

function hmacHex(algorithm: string, secret: string, body: Buffer): string {
  return createHmac(algorithm, secret).update(body).digest('hex');
}

/** Constant-time string equality; hashing first gives equal lengths without leaking the length. */
function safeEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
