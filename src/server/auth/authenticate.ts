import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Db } from '../db/database.ts';
import type { AppEnv } from '../http/context.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import { SESSION_COOKIE, userForApiToken, userForSession } from './sessions.ts';
import { callerMemoOf } from './caller-memo.ts';
import type { Caller } from './caller.ts';
import { hashSecretToken } from '../access/tokens.ts';
import { setAuditActor } from '../domain/audit/audit-context.ts';
import type { Config } from '../config/config.ts';
import { proxyCaller } from './proxy-jwt.ts';
import { proxyAssertion } from '../config/auth-config.ts';

/** How many characters of a bearer token the audit trail keeps (the id token lists show). */
const TOKEN_PREFIX_LENGTH = 8;

/**
 * Finds the caller from `Authorization: Bearer <token>` or the session cookie. A header that
 * mentions "bearer" rules out the cookie, as in Semaphore; tokens compare lower-cased.
 */
async function resolveCaller(db: Db, authorization: string | undefined, sessionCookie: string | undefined): Promise<Caller | null> {
  const header = authorization?.toLowerCase() ?? '';
  if (header.includes('bearer')) {
    const token = header.replace('bearer ', '').trim();
    const user = await userForApiToken(db, token);
    return user ? { user, sessionId: undefined, tokenHash: hashSecretToken(token), tokenPrefix: token.slice(0, TOKEN_PREFIX_LENGTH), verified: true } : null;
  }
  const found = sessionCookie ? await userForSession(db, sessionCookie) : null;
  return found ? { user: found.user, sessionId: found.sessionId, tokenHash: undefined, tokenPrefix: '', verified: found.verified } : null;
}

/** What a request says about its caller: its `Authorization`, its session cookie, and any other header (for a proxy's assertion). */
export interface CallerHeaders {
  authorization: string | undefined;
  cookie: string | undefined;
  header: (name: string) => string | undefined;
}

/**
 * The one gate every authenticated door goes through (API routes, `/api/metrics`, `/api/ws`):
 * the caller, or 401 — with `TOTP_REQUIRED` for a session that passed the password but not
 * yet its second factor, which may do nothing but prove that factor. With proxy sign-in on
 * (`auth.jwt`), a request carrying the proxy's assertion is signed in by it alone.
 */
export async function authenticatedCaller(db: Db, config: Config, request: CallerHeaders): Promise<Caller> {
  const assertion = proxyAssertion(config.proxy_auth, request.header);
  if (assertion) return proxyCaller(db, config, assertion.value);
  const caller = await resolveCaller(db, request.authorization, request.cookie);
  if (!caller) throw unauthorized();
  if (!caller.verified) throw unauthorized('TOTP_REQUIRED');
  return caller;
}

/** Loads the caller into `c.var.user`; 401 with an empty body otherwise. */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async function authenticateCaller(c, next) {
    const { db, config } = c.var.deps;
    const request = { authorization: c.req.header('authorization'), cookie: getCookie(c, SESSION_COOKIE), header: (name: string) => c.req.header(name) };
    const memo = callerMemoOf(c);
    const memoKey = `${request.authorization ?? ''}\n${request.cookie ?? ''}\n${proxyAssertion(config.proxy_auth, request.header)?.value ?? ''}`;
    const caller = memo?.get(memoKey) ?? await authenticatedCaller(db, config, request);
    memo?.set(memoKey, caller);
    c.set('user', caller.user);
    c.set('sessionId', caller.sessionId);
    setAuditActor({ userId: caller.user.id, name: caller.user.username, token: caller.tokenPrefix });
    return next();
  };
}

/** Only system administrators pass; others get 403, or 401 where Semaphore answers so. */
export function requireAdmin(status: 401 | 403 = 403): MiddlewareHandler<AppEnv> {
  return async function requireAdminUser(c, next) {
    if (!c.var.user.admin) throw status === 401 ? unauthorized() : forbidden();
    return next();
  };
}
