import bcrypt from 'bcryptjs';

/** bcrypt, as Semaphore stores it, so users moved over keep their passwords. */
export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, 11);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  if (!hash) return Promise.resolve(false);
  return bcrypt.compare(plain, hash);
}

/**
 * A bcrypt hash (cost 11, like real ones) of a random string nobody knows: compared against when
 * the user is unknown, so a wrong user name takes as long as a wrong password.
 */
export const UNUSABLE_PASSWORD_HASH = '$2b$11$G8FQgrxg8X2h9KJRF2NyX.N8ND8ax/zvgwVNdPj1XeFh0acFtEJSK';
