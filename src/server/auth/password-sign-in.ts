import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { findUserByLogin } from '../domain/users/user.repository.ts';
import { UNUSABLE_PASSWORD_HASH, verifyPassword } from '../access/password.ts';
import { signInWithLdap } from './ldap.ts';

/**
 * The throttle's name for whoever a login names: the user's id when known, so the username
 * and the email share one failure count; otherwise the login itself.
 */
export async function loginAccount(db: Db, login: string): Promise<string> {
  const user = await findUserByLogin(db, login);
  return user ? `#${user.id}` : login;
}

/**
 * The user a login and password prove, or null. With LDAP on, the directory is asked first; a
 * login the directory does not know falls back to local accounts, as in Semaphore. External
 * users never sign in with a local password.
 */
export async function checkPassword(deps: Deps, login: string, password: string): Promise<UserRow | null> {
  if (deps.config.ldap.enable) {
    const outcome = await signInWithLdap(deps, login, password);
    if (outcome !== 'unknown') return outcome;
  }
  const user = await findUserByLogin(deps.db, login);
  // unknown and external users cost one bcrypt compare too, so timing does not tell who exists
  const usable = user && !user.external && user.password ? user.password : UNUSABLE_PASSWORD_HASH;
  const matches = await verifyPassword(password, usable);
  return user && usable !== UNUSABLE_PASSWORD_HASH && matches ? user : null;
}
