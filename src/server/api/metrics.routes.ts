import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { routePath } from 'hono/route';
import { timingSafeEqual } from 'node:crypto';
import type { AppEnv } from '../http/context.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import { authenticatedCaller } from '../auth/authenticate.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import type { Metrics } from '../metrics/metrics.ts';

/**
 * `GET /api/metrics`: the Prometheus text exposition, served only when `metrics.enabled`.
 * Readable with the basic-auth pair `metrics.username`/`metrics.password`, or by an admin
 * (API token or session); anyone else gets 401/403.
 */
export async function serveMetrics(c: Context<AppEnv>): Promise<Response> {
  const { metrics, config, db } = c.var.deps;
  if (!metrics) return c.text('Not Found', 404);
  const authorization = c.req.header('authorization');
  const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '');
  if (basic) {
    if (!config.metrics.username || !sameText(Buffer.from(basic[1]!, 'base64').toString('utf8'), `${config.metrics.username}:${config.metrics.password}`)) throw forbidden();
  } else {
    const caller = await authenticatedCaller(db, config, { authorization, cookie: getCookie(c, SESSION_COOKIE), header: (name) => c.req.header(name) }).catch(askForBasicAuth);
    if (!caller.user.admin) throw forbidden();
  }
  return c.body(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType });
}

/** Counts every API request by method, route pattern (not the raw path) and status. */
export function countRequests(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async function countRequest(c, next) {
    await next();
    metrics.httpRequests.inc({ method: c.req.method, route: routePath(c) || 'unmatched', status: String(c.res.status) });
  };
}

/** A refused caller is told that basic auth is the other way in. */
function askForBasicAuth(error: unknown): never {
  if (error instanceof ApiError && error.code === 'unauthorized') throw new ApiError('unauthorized', error.message, {}, { 'www-authenticate': 'Basic realm="metrics"' });
  throw error;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
