import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url with padding, lower-cased: 44 characters, as Semaphore makes them. */
export function newApiToken(): string {
  return randomBytes(32).toString('base64url').padEnd(44, '=').toLowerCase();
}

/** Session cookies and API tokens are stored only as this hash. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}
