import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import type { UserRow } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { checkPassword } from './password-sign-in.ts';
import { acceptPasscode, findTotp } from './totp.ts';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-throttle.ts';

/**
 * The proof a user gives again before changing their own password or removing their own second
 * factor: the current password (local or LDAP) or a code from their authenticator app.
 * Semaphore has no such fields; `passcode` is the name `/api/auth/verify` already uses.
 */
export const reauthenticationFields = {
  current_password: z.string().max(1024, 'at most 1024 characters').optional(),
  passcode: z.string().max(64, 'at most 64 characters').optional(),
};
export const reauthenticationSchema = z.strictObject(reauthenticationFields);
export type Reauthentication = z.infer<typeof reauthenticationSchema>;

/**
 * A caller changing their own account proves again who they are, so a stolen session or token
 * cannot lock the owner out; admins changing someone else are not asked. Wrong proofs count as
 * failed sign-ins of that user (the same throttle, 429 once they pile up) and answer 400.
 */
export async function requireReauthentication(c: Context<AppEnv>, target: UserRow, proof: Reauthentication): Promise<void> {
  if (target.id !== c.var.user.id) return;
  if (!proof.current_password && !proof.passcode) throw badRequest('current_password: required to change your own account');
  const { db } = c.var.deps;
  const account = `#${target.id}`;
  const address = apiClientFacts(c).address;
  await checkLoginAllowed(db, account, address);
  if (!(await proves(c, target, proof))) {
    await recordLoginFailure(db, account, address);
    throw badRequest('current_password: incorrect password or code');
  }
  await clearLoginFailures(db, account, address);
}

async function proves(c: Context<AppEnv>, user: UserRow, proof: Reauthentication): Promise<boolean> {
  const { deps } = c.var;
  if (proof.current_password && (await checkPassword(deps, user.username, proof.current_password))?.id === user.id) return true;
  const totp = proof.passcode ? await findTotp(deps.db, user.id) : undefined;
  return Boolean(totp && await acceptPasscode(deps.db, totp, user, proof.passcode!.trim(), deps.secrets, deps.config.totp));
}
