import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import type { UserRow } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { checkPassword } from './password-sign-in.ts';
import { acceptPasscode, findConfirmedTotp } from './totp.ts';
import { reauthenticationFields } from '../domain/users/user.schema.ts';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-throttle.ts';

export const reauthenticationSchema = z.strictObject(reauthenticationFields);
export type Reauthentication = z.infer<typeof reauthenticationSchema>;

/**
 * How recent a browser session's sign-in must be for its own password change to need no proof
 * (Semaphore's web UI sends none). Older sessions, and API tokens, still prove who they are.
 */
export const FRESH_SESSION_MS = 60 * 60 * 1000;

/**
 * A caller changing their own account proves again who they are, so a stolen session or token
 * cannot lock the owner out; admins changing someone else are not asked. With `freshSession`,
 * a browser session signed in within FRESH_SESSION_MS needs no proof. Wrong proofs count as
 * failed sign-ins of that user (the same throttle, 429 once they pile up) and answer 400.
 */
export async function requireReauthentication(c: Context<AppEnv>, target: UserRow, proof: Reauthentication, options: { freshSession?: boolean } = {}): Promise<void> {
  if (target.id !== c.var.user.id) return;
  if (!proof.current_password && !proof.passcode) {
    if (options.freshSession && await signedInRecently(c)) return;
    throw badRequest('current_password: required to change your own account');
  }
  await requireThrottledProof(c, `#${target.id}`, () => proves(c, target, proof), 'current_password: incorrect password or code');
}

/**
 * Runs `prove` under the sign-in throttle of `account` and the caller's address: 429 while
 * they must wait, a failed proof counts as a failed sign-in and answers 400 `refusal`, a
 * passing one forgets this address's failures.
 */
export async function requireThrottledProof(c: Context<AppEnv>, account: string, prove: () => Promise<boolean>, refusal: string): Promise<void> {
  const { db } = c.var.deps;
  const address = apiClientFacts(c).address;
  await checkLoginAllowed(db, account, address);
  if (!(await prove())) {
    await recordLoginFailure(db, account, address);
    throw badRequest(refusal);
  }
  await clearLoginFailures(db, account, address);
}

/** The password, or a code of a confirmed enrolment (a pending one proves nothing yet). */
async function proves(c: Context<AppEnv>, user: UserRow, proof: Reauthentication): Promise<boolean> {
  const { deps } = c.var;
  if (proof.current_password && (await checkPassword(deps, user.username, proof.current_password))?.id === user.id) return true;
  const totp = proof.passcode ? await findConfirmedTotp(deps.db, user.id) : undefined;
  return Boolean(totp && await acceptPasscode(deps.db, totp, user, proof.passcode!.trim(), deps.secrets, deps.config.totp));
}

/** Whether the request's session (a cookie, never a token) was signed in within FRESH_SESSION_MS. */
async function signedInRecently(c: Context<AppEnv>): Promise<boolean> {
  const { sessionId } = c.var;
  if (!sessionId) return false;
  const session = await c.var.deps.db.selectFrom('session').select('created').where('id', '=', sessionId).executeTakeFirst();
  return Boolean(session && Date.now() - Date.parse(session.created) < FRESH_SESSION_MS);
}
