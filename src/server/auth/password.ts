import bcrypt from 'bcryptjs';

/** bcrypt, as Semaphore stores it, so users moved over keep their passwords. */
export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, 11);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  if (!hash) return Promise.resolve(false);
  return bcrypt.compare(plain, hash);
}
