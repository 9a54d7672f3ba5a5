import { Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { ApiError, unauthorized } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { verifyPassword } from '../auth/password.ts';
import { endSession, SESSION_COOKIE, startSession, userForSession } from '../auth/sessions.ts';
import { findUserByLogin } from '../domain/users/user.repository.ts';
import { getCookie } from 'hono/cookie';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from '../auth/login-throttle.ts';

export const loginSchema = z.strictObject({
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
  const ip = clientIp(c.req.raw.headers, c.env);
  const user = await findUserByLogin(db, input.auth);
  // throttle the account, not the spelling: username and email must share one failure count
  const account = user ? `#${user.id}` : input.auth;
  await checkLoginAllowed(db, account, ip);
  if (!user || user.external || !(await verifyPassword(input.password, user.password))) {
    await recordLoginFailure(db, account, ip);
    throw unauthorized();
  }
  await clearLoginFailures(db, account);
  const token = await startSession(db, user.id, ip, c.req.header('user-agent') ?? '');
  setCookie(c, SESSION_COOKIE, token, {
    path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c.req.url, c.req.header('x-forwarded-proto')),
  });
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

function isHttps(url: string, forwardedProto: string | undefined): boolean {
  return url.startsWith('https:') || forwardedProto === 'https';
}

/** X-Real-IP as Semaphore reads it, else the socket address when served by node-server. */
export function clientIp(headers: Headers, env: unknown): string {
  const real = headers.get('x-real-ip');
  if (real) return real;
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'local';
}
