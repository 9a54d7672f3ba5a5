import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { ApiError, unauthorized } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { UNUSABLE_PASSWORD_HASH, verifyPassword } from '../auth/password.ts';
import { setSessionCookie } from '../auth/session-cookie.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { endSession, SESSION_COOKIE, startSession, userForSession } from '../auth/sessions.ts';
import { findUserByLogin } from '../domain/users/user.repository.ts';
import { getCookie } from 'hono/cookie';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from '../auth/login-throttle.ts';

const loginSchema = z.strictObject({
  auth: z.string().min(1, 'required').max(255, 'at most 255 characters'),
  password: z.string().min(1, 'required').max(1024, 'at most 1024 characters'),
});

/** `/api/auth/*`: sign-in metadata, password sign-in, sign-out. No session needed. */
export const authRoutes = new Hono<AppEnv>();

authRoutes.get('/login', (c) => {
  const { config } = c.var.deps;
  return c.json({ oidc_providers: [], login_with_password: !config.password_login_disable, auth_methods: {} });
});

authRoutes.post('/login', async (c) => {
  const { db, config } = c.var.deps;
  if (config.password_login_disable) throw new ApiError('forbidden', 'password login is disabled');
  const input = await readJson(c, loginSchema);
  const client = apiClientFacts(c);
  const user = await findUserByLogin(db, input.auth);
  // throttle the account, not the spelling: username and email must share one failure count
  const account = user ? `#${user.id}` : input.auth;
  await checkLoginAllowed(db, account, client.address);
  // unknown and external users cost one bcrypt compare too, so timing does not tell who exists
  const usable = user && !user.external && user.password ? user.password : UNUSABLE_PASSWORD_HASH;
  const passwordMatches = await verifyPassword(input.password, usable);
  if (!user || usable === UNUSABLE_PASSWORD_HASH || !passwordMatches) {
    await recordLoginFailure(db, account, client.address);
    throw unauthorized();
  }
  await clearLoginFailures(db, account, client.address);
  const token = await startSession(db, user.id, client.address, c.req.header('user-agent') ?? '');
  setSessionCookie(c, token);
  return c.body(null, 204);
});

authRoutes.post('/logout', async (c) => {
  const { db } = c.var.deps;
  const cookie = getCookie(c, SESSION_COOKIE);
  const found = cookie ? await userForSession(db, cookie) : null;
  if (found) await endSession(db, found.sessionId);
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  return c.body(null, 204);
});
