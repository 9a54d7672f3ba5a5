import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { ApiError } from './errors.ts';
import { isForeignRequest, isStateChanging } from './same-origin.ts';

/** The webhook receiver takes whatever its senders post (GitHub can send form bodies). */
const WEBHOOK_RECEIVER = /^\/api\/integrations\//;

/**
 * Cross-site request forgery guard for the JSON API: bodies must be `application/json` (415
 * otherwise: a form or `text/plain` body is what a foreign page can send without asking), and
 * a state-changing call that a browser made from another origin is refused (403) unless it is
 * authenticated by a bearer token alone, which no foreign page can attach.
 * @example api.use('*', refuseForeignWrites());
 */
export function refuseForeignWrites(): MiddlewareHandler<AppEnv> {
  return async function refuseForeignWrite(c, next) {
    if (WEBHOOK_RECEIVER.test(c.req.path)) return next();
    if (hasBody(c.req.raw) && !isJson(c.req.header('content-type'))) {
      throw new ApiError('unsupported_media_type', 'Content-Type must be application/json');
    }
    const bearerOnly = /bearer/i.test(c.req.header('authorization') ?? '') && !c.req.header('cookie');
    if (isStateChanging(c.req.method) && !bearerOnly && isForeignRequest((n) => c.req.header(n), c.var.deps.config.web_host)) {
      throw new ApiError('forbidden', 'cross-origin request refused');
    }
    return next();
  };
}

function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  if (length !== null) return Number(length) > 0;
  return request.headers.has('transfer-encoding') || request.body !== null;
}

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}
