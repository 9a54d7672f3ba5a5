import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import type { Config } from '../config/config.ts';
import type { UserRow } from '../db/schema.ts';
import { ApiError, unauthorized } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { setSessionCookie } from '../auth/session-cookie.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { endSession, markSessionVerified, SESSION_COOKIE, startSession, userForSession } from '../auth/sessions.ts';
import { acceptPasscode, findConfirmedTotp, redeemRecoveryCode } from '../auth/totp.ts';
import { checkPassword, loginAccount } from '../auth/password-sign-in.ts';
import { checkLoginAllowed, clearLoginFailures, firstThrottledInWindow, recordLoginFailure, THROTTLE_WINDOW_MINUTES, type LoginCheck } from '../auth/login-throttle.ts';
import { listOidcProviders } from '../auth/oidc.ts';
import { withAudit, writeAudit } from '../domain/audit/audit.writer.ts';
import { auditNothingChanged, setAuditActor } from '../domain/audit/audit-context.ts';

/** Longest login name an audit row keeps of a failed sign-in (a name is up to 255 characters). */
const AUDITED_NAME_LENGTH = 64;

type SignInStep = 'login_fail' | 'mfa_fail';
type Who = { id: number | null; name: string };

/** The audit record of a refused sign-in step, kept even though the request fails. */
async function auditSignInFailure(c: Context<AppEnv>, action: SignInStep, who: Who, why: string): Promise<void> {
  const name = who.name.length > AUDITED_NAME_LENGTH ? `${who.name.slice(0, AUDITED_NAME_LENGTH)}…` : who.name;
  await writeAudit(c.var.deps.db, { action, actor: { userId: who.id, name, token: '' }, objectType: 'user', objectId: who.id, objectName: name, description: why });
}

/**
 * Audits a failed step one row each while its address is quiet; once it is throttled or noisy,
 * one row per address per throttle window stands for all of them, so a flood of attempts
 * cannot flood the audit trail.
 */
async function auditFailure(c: Context<AppEnv>, action: SignInStep, who: Who, why: string, quiet: boolean): Promise<void> {
  if (quiet) return auditSignInFailure(c, action, who, why);
  if (await firstThrottledInWindow(c.var.deps.db, apiClientFacts(c).address)) {
    await auditSignInFailure(c, action, who, `${why}; too many attempts from this address: further ones in the next ${THROTTLE_WINDOW_MINUTES} minutes are not recorded one by one`);
  }
}

/** Runs a sign-in throttle check; a refusal is audited as a failed step (aggregated per address). */
async function throttled(c: Context<AppEnv>, check: Promise<LoginCheck>, action: SignInStep, who: Who): Promise<LoginCheck> {
  try {
    return await check;
  } catch (err) {
    await auditFailure(c, action, who, 'refused by the sign-in throttle', false);
    throw err;
  }
}

/** The user id in a login-throttle account name ("#12"), or null for an unknown login. */
function accountUserId(account: string): number | null {
  return /^#\d+$/.test(account) ? Number(account.slice(1)) : null;
}

export const loginSchema = z.strictObject({
  auth: z.string().min(1, 'required').max(255, 'at most 255 characters'),
  password: z.string().min(1, 'required').max(1024, 'at most 1024 characters'),
});
const verifySchema = z.strictObject({ passcode: z.string().max(64, 'at most 64 characters') });
const recoverySchema = z.strictObject({ recovery_code: z.string().max(64, 'at most 64 characters') });

/** `/api/auth/*`: sign-in metadata, password sign-in, the second factor, sign-out. No session needed. */
export const authRoutes = new Hono<AppEnv>();

authRoutes.get('/login', (c) => {
  const { config } = c.var.deps;
  return c.json({ oidc_providers: listOidcProviders(config), login_with_password: !config.password_login_disable, auth_methods: authMethods(config) });
});

authRoutes.post('/login', async (c) => {
  const { db, config } = c.var.deps;
  if (config.password_login_disable) throw new ApiError('forbidden', 'password login is disabled');
  const input = await readJson(c, loginSchema);
  const client = apiClientFacts(c);
  const account = await loginAccount(db, input.auth);
  const who = { id: accountUserId(account), name: input.auth };
  const { noisyAddress } = await throttled(c, checkLoginAllowed(db, account, client.address), 'login_fail', who);
  const user = await checkPassword(c.var.deps, input.auth, input.password);
  if (!user) {
    await recordLoginFailure(db, account, client.address);
    await auditFailure(c, 'login_fail', who, 'wrong login or password', !noisyAddress);
    throw unauthorized();
  }
  await clearLoginFailures(db, account, client.address);
  await openSession(c, user, 'password');
  return c.body(null, 204);
});

authRoutes.post('/verify', async (c) => {
  const { db, config, secrets } = c.var.deps;
  const { passcode } = await readJson(c, verifySchema);
  const pending = await pendingSession(c);
  if (!pending) return noChange(c);
  await proveSecondFactor(c, pending, 'INVALID_PASSCODE',
    (totp) => acceptPasscode(db, totp, pending.user, passcode.trim(), secrets, config.totp));
  return c.body(null, 204);
});

authRoutes.post('/recovery', async (c) => {
  const { db, config } = c.var.deps;
  const { recovery_code } = await readJson(c, recoverySchema);
  if (!config.totp.allow_recovery) throw new ApiError('forbidden', 'TOTP_DISABLED');
  const pending = await pendingSession(c);
  if (!pending) return noChange(c);
  await proveSecondFactor(c, pending, 'INVALID_RECOVERY_CODE', (totp) => redeemRecoveryCode(db, totp, recovery_code));
  return c.json({ totp_removed: true });
});

/**
 * The second step of a sign-in: throttled like passwords (per user and address); a passing
 * `check` of the user's TOTP marks the pending session verified, a failing one is Semaphore's
 * 401 `{"error": "INVALID_PASSCODE"}` (or `INVALID_RECOVERY_CODE`), which its clients read.
 */
async function proveSecondFactor(c: Context<AppEnv>, pending: { user: UserRow; sessionId: string }, refusal: 'INVALID_PASSCODE' | 'INVALID_RECOVERY_CODE',
  check: (totp: NonNullable<Awaited<ReturnType<typeof findConfirmedTotp>>>) => Promise<boolean>): Promise<void> {
  const { db } = c.var.deps;
  const ip = apiClientFacts(c).address;
  const account = `totp#${pending.user.id}`;
  const who = { id: pending.user.id, name: pending.user.username };
  setAuditActor({ userId: who.id, name: who.name, token: '' });
  const { noisyAddress } = await throttled(c, checkLoginAllowed(db, account, ip), 'mfa_fail', who);
  const totp = await findConfirmedTotp(db, pending.user.id);
  if (!totp || !(await check(totp))) {
    await recordLoginFailure(db, account, ip);
    await auditFailure(c, 'mfa_fail', who, refusal, !noisyAddress);
    throw unauthorized(refusal);
  }
  await clearLoginFailures(db, account, ip);
  await withAudit(db, (tx) => markSessionVerified(tx, pending.sessionId),
    () => ({ objectType: 'user', objectId: who.id, objectName: who.name, description: 'second factor accepted' }));
}

authRoutes.post('/logout', async (c) => {
  const { db } = c.var.deps;
  const cookie = getCookie(c, SESSION_COOKIE);
  const found = cookie ? await userForSession(db, cookie) : null;
  if (found) {
    setAuditActor({ userId: found.user.id, name: found.user.username, token: '' });
    await withAudit(db, (tx) => endSession(tx, found.sessionId),
      () => ({ objectType: 'user', objectId: found.user.id, objectName: found.user.username }));
  } else auditNothingChanged();
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  return c.body(null, 204);
});

/**
 * The cookie session waiting for its second factor; null when it is already verified. No
 * session → 401; TOTP switched off in config → 403 `TOTP_DISABLED`, as Semaphore answers.
 */
async function pendingSession(c: Context<AppEnv>): Promise<{ user: UserRow; sessionId: string } | null> {
  const cookie = getCookie(c, SESSION_COOKIE);
  const found = cookie ? await userForSession(c.var.deps.db, cookie) : null;
  if (!found) throw unauthorized();
  if (!c.var.deps.config.totp.enabled) throw new ApiError('forbidden', 'TOTP_DISABLED');
  return found.verified ? null : found;
}

/**
 * Starts a session for a user who proved who they are and sets the `semaphore` cookie. After a
 * password (local or LDAP) a user with a confirmed TOTP enrolment gets an unverified session; an identity
 * provider's sign-in is trusted as it is.
 */
export async function openSession(c: Context<AppEnv>, user: UserRow, via: 'password' | 'oidc'): Promise<void> {
  const { db, config } = c.var.deps;
  const pending = via === 'password' && config.totp.enabled && (await findConfirmedTotp(db, user.id)) ? 'totp' : undefined;
  setAuditActor({ userId: user.id, name: user.username, token: '' });
  const token = await withAudit(db, (tx) => startSession(tx, user.id, apiClientFacts(c).address, c.req.header('user-agent') ?? '', pending),
    () => ({ action: 'login_success', objectType: 'user', objectId: user.id, objectName: user.username, description: pending ? `${via}; second factor pending` : via }));
  setSessionCookie(c, token);
}

/** A 204 for a step that had nothing left to do (the session is already verified). */
function noChange(c: Context<AppEnv>): Response {
  auditNothingChanged();
  return c.body(null, 204);
}

/** `auth_methods` of `/api/auth/login` and `/api/info`: a method is listed only when it is on. */
export function authMethods(config: Config): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  if (config.totp.enabled) methods.totp = { enabled: true, allow_recovery: config.totp.allow_recovery };
  if (config.ldap.enable) methods.ldap = { enabled: true };
  return methods;
}
