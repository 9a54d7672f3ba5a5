import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { AppEnv } from '../http/context.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { SESSION_COOKIE } from './sessions.ts';

/**
 * Sets the session cookie: HttpOnly, SameSite=Lax, and Secure whenever the browser is on https
 * (directly, through a trusted proxy, or because SEMAPHORE_WEB_ROOT is https). Every sign-in
 * path (password, TOTP, OIDC …) sets the cookie through here.
 * @example setSessionCookie(c, await startSession(db, user.id, address, agent));
 */
export function setSessionCookie(c: Context<AppEnv>, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: apiClientFacts(c).https });
}
