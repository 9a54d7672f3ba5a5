import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './errors.ts';

/** Largest request body the runner API takes (backups of big projects fit comfortably). */
export const API_BODY_LIMIT = 10 * 1024 * 1024;

/** Largest body of a route that only ever takes a few fields (sign-in, a token's name). */
export const SMALL_BODY_LIMIT = 64 * 1024;

/** Largest request body a console page takes: its forms are a few kilobytes. */
export const CONSOLE_BODY_LIMIT = 1024 * 1024;

/** What one API request body may cost: its bytes, and the keys and elements its JSON holds. */
export interface BodyBudget { bytes: number; values: number }

/** Sign-in steps, runner registration and token routes: a few short fields, most of them before any session. */
const SMALL: BodyBudget = { bytes: SMALL_BODY_LIMIT, values: 1_000 };
/** Everything else: a template, an environment's JSON, a webhook delivery. */
const REGULAR: BodyBudget = { bytes: API_BODY_LIMIT, values: 100_000 };
/** A backup to restore, a runner's batch of log lines: authenticated, and big by nature. */
const BULK: BodyBudget = { bytes: API_BODY_LIMIT, values: 1_000_000 };

const SMALL_ROUTES = /^\/api\/(auth\/|user\/tokens(\/|$)|board\/tokens(\/|$))/;
const BULK_ROUTES = new Set(['POST /api/projects/restore', 'PUT /api/internal/runners']);

/**
 * The body budget of an API request, by method and path (trailing slashes ignored). Runner
 * registration and unregistration (POST, DELETE) are small; a runner's progress report (PUT) is bulk.
 * @example apiBodyBudget('POST', '/api/auth/login') // { bytes: 65536, values: 1000 }
 */
export function apiBodyBudget(method: string, path: string): BodyBudget {
  const pathname = path.replace(/\/+$/, '');
  const route = `${method.toUpperCase()} ${pathname}`;
  if (BULK_ROUTES.has(route)) return BULK;
  if (SMALL_ROUTES.test(pathname) || pathname === '/api/internal/runners') return SMALL;
  return REGULAR;
}

const refuse = () => {
  throw new ApiError('too_large', 'request body is too large');
};
const limitBy = new Map([SMALL, REGULAR, BULK].map((budget) => [budget, bodyLimit({ maxSize: budget.bytes, onError: refuse })]));

/**
 * Refuses an API body over its route's byte budget with 413 `{"error": ...}`: on its
 * Content-Length before reading a byte, or as soon as a chunked body passes the limit.
 * @example api.use('*', limitApiBodies());
 */
export function limitApiBodies(): MiddlewareHandler {
  return function limitApiBody(c, next) {
    return limitBy.get(apiBodyBudget(c.req.method, c.req.path))!(c, next);
  };
}

/**
 * Console pages that take an upload: the restore page posts a backup file, which the API then
 * takes as one JSON body, so the page allows that much plus room for the form around it.
 */
const CONSOLE_UPLOAD_LIMITS = new Map<string, number>([['/project/restore', API_BODY_LIMIT + 64 * 1024]]);

/**
 * The body limit of a console path (query string ignored).
 * @example consoleBodyLimit('/project/restore') // 10 MB + 64 KB; consoleBodyLimit('/auth/login') // 1 MB
 */
export function consoleBodyLimit(path: string): number {
  const pathname = path.split('?')[0]!.replace(/\/+$/, '') || '/';
  return CONSOLE_UPLOAD_LIMITS.get(pathname) ?? CONSOLE_BODY_LIMIT;
}
