import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/db-faults.ts';

export type ApiErrorCode = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'unsupported_media_type' | 'too_many';

const STATUS: Record<ApiErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  too_many: 429,
};

/**
 * The one error type handlers throw. The body is `{"error": message}` plus `extra` fields;
 * an empty message gives an empty body, as Semaphore does for 401/403/404.
 * @example throw new ApiError('bad_request', 'name: required');
 */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(code: ApiErrorCode, message = '', extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
  get status() {
    return STATUS[this.code];
  }
}

export const notFound = (what = '') => new ApiError('not_found', what);
export const badRequest = (message: string, extra: Record<string, unknown> = {}) => new ApiError('bad_request', message, extra);
export const forbidden = () => new ApiError('forbidden');
export const unauthorized = (message = '') => new ApiError('unauthorized', message);

/** Maps any thrown value to an HTTP answer; the only place that does. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    if (!err.message) return c.body(null, err.status);
    return c.json({ error: err.message, ...err.extra }, err.status);
  }
  if (err instanceof HTTPException) {
    if (err.status === 413) return c.json({ error: 'request body is too large' }, 413);
    return c.json({ error: err.message || 'bad request' }, err.status);
  }
  if (isDatabaseUnavailable(err)) {
    c.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return c.json({ error: 'the database is unavailable; try again shortly' }, 503);
  }
  // a race past a handler's own checks (two inserts of the same member) is the client's conflict
  if (isConstraintViolation(err)) return c.body(null, 409);
  console.error(`[api] ${c.req.method} ${c.req.path} failed:`, err);
  return c.json({ error: 'internal server error' }, 500);
}

/** Unique or foreign-key violation, as PostgreSQL (23505/23503) or SQLite reports it. */
function isConstraintViolation(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return code === '23505' || code === '23503' || code === 'SQLITE_CONSTRAINT_UNIQUE'
    || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
