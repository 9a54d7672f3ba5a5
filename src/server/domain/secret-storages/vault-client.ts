import { sendOutgoing, type OutgoingAnswer } from '../../lib/outgoing-http.ts';

/** Largest answer read from a storage: a KV secret is a few kilobytes. */
const ANSWER_LIMIT = 1024 * 1024;

/** How long one request to a storage may take before the task fails instead of waiting. */
export const STORAGE_TIMEOUT_MS = 10_000;

export type AuthMethod = 'token' | 'approle' | 'jwt';

/** What talking to a Vault-compatible storage needs: where, how to sign in, and the credential. */
export interface VaultConnection {
  url: string;
  mount: string;
  namespace: string;
  auth_method: AuthMethod;
  /** where the auth method is mounted (`approle`, `jwt` by default) */
  auth_mount: string;
  role_id: string;
  role: string;
  /** the token (token auth) or AppRole secret id (approle auth) */
  secret: string;
}

/** A storage that did not answer, refused, or lacks the secret. The message never holds a secret value. */
export class StorageError extends Error {}

/** A reference `path#field` (the field may be left out: the whole secret is read). */
export interface SecretRef {
  path: string;
  field: string;
}

/**
 * Parses `path#field`; null when it is not one (empty path, `..` segments, a leading slash).
 * @example parseSecretRef('ci/deploy#password') // { path: 'ci/deploy', field: 'password' }
 */
export function parseSecretRef(text: string): SecretRef | null {
  const hash = text.indexOf('#');
  const path = (hash < 0 ? text : text.slice(0, hash)).trim();
  const field = hash < 0 ? '' : text.slice(hash + 1).trim();
  if (!path || path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '.' || s === '') || /[\s?#%]/.test(path)) return null;
  if (/[\s#]/.test(field)) return null;
  return { path, field };
}

function apiUrl(c: VaultConnection, path: string): string {
  return `${c.url.replace(/\/+$/, '')}/v1/${path}`;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** One request with the timeout; Vault's `{"errors": [...]}` becomes the error text. */
async function vaultRequest(c: VaultConnection, method: string, path: string, token: string, body?: object): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers['x-vault-token'] = token;
  if (c.namespace) headers['x-vault-namespace'] = c.namespace;
  if (body) headers['content-type'] = 'application/json';
  let answer: OutgoingAnswer;
  try {
    answer = await sendOutgoing(apiUrl(c, path), { method, headers, body: body ? JSON.stringify(body) : undefined, timeoutMs: STORAGE_TIMEOUT_MS, answerLimit: ANSWER_LIMIT });
  } catch (err) {
    // one text per kind of failure (see outgoing-http), so a storage's test cannot tell a closed port from a missing host
    throw new StorageError((err as Error).message);
  }
  const text = answer.body.toString('utf8');
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // a proxy's HTML page: reported by status below
  }
  if (answer.status < 200 || answer.status >= 300) {
    const errors = Array.isArray(parsed.errors) ? parsed.errors.filter((e) => typeof e === 'string').join('; ') : '';
    throw new StorageError(`answered ${answer.status}${errors ? `: ${errors.slice(0, 300)}` : ''}`);
  }
  return parsed;
}

/** Signs in as the storage says; `taskJwt` is the task's identity token (JWT auth). Returns a client token. */
export async function vaultLogin(c: VaultConnection, taskJwt: string | null): Promise<string> {
  if (c.auth_method === 'token') {
    if (!c.secret) throw new StorageError('has no token');
    return c.secret;
  }
  let body: object;
  if (c.auth_method === 'approle') body = { role_id: c.role_id, secret_id: c.secret };
  else {
    if (!taskJwt) throw new StorageError('signs in with the task\'s JWT, but the task has none (turn on JWT in the template and jwt.enabled in the server config)');
    body = { role: c.role, jwt: taskJwt };
  }
  const answer = await vaultRequest(c, 'POST', `auth/${encodePath(c.auth_mount || c.auth_method)}/login`, '', body);
  const token = (answer.auth as { client_token?: unknown } | undefined)?.client_token;
  if (typeof token !== 'string' || !token) throw new StorageError('sign-in answered without a client token');
  return token;
}

/**
 * Gives back a token this run signed in for (AppRole, JWT), so none piles up in the storage
 * until its lease ends; a failure only leaves it to expire. A configured token is never revoked.
 */
export async function revokeLogin(c: VaultConnection, token: string): Promise<void> {
  if (c.auth_method === 'token') return;
  await vaultRequest(c, 'POST', 'auth/token/revoke-self', token).catch(() => undefined);
}

/**
 * Reads a KV v2 secret's data (`GET /v1/<mount>/data/<path>`): the field's value, or the whole
 * data object when no field is named.
 */
export async function readKvSecret(c: VaultConnection, token: string, ref: SecretRef): Promise<string | Record<string, unknown>> {
  const answer = await vaultRequest(c, 'GET', `${encodePath(c.mount || 'secret')}/data/${encodePath(ref.path)}`, token);
  const data = (answer.data as { data?: unknown } | undefined)?.data;
  if (!data || typeof data !== 'object') throw new StorageError('answered without data (is the mount a KV version 2 engine?)');
  if (!ref.field) return data as Record<string, unknown>;
  if (!Object.hasOwn(data, ref.field)) throw new StorageError(`has no field "${ref.field}" there`);
  const value = (data as Record<string, unknown>)[ref.field];
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Checks the connection: signs in (token: looks itself up) so a wrong credential shows now, not at task start. */
export async function testConnection(c: VaultConnection): Promise<void> {
  if (c.auth_method === 'jwt') {
    await vaultRequest(c, 'GET', 'sys/health', '');
    return;
  }
  const token = await vaultLogin(c, null);
  await vaultRequest(c, 'GET', 'auth/token/lookup-self', token);
}
