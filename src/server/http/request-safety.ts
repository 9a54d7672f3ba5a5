import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { ApiError } from './errors.ts';
import { isForeignRequest, isStateChanging } from './same-origin.ts';
import { proxyAssertion } from '../config/auth-config.ts';

/** The webhook receiver takes whatever its senders post (GitHub can send form bodies). */
const WEBHOOK_RECEIVER = /^\/api\/integrations\//;

/**
 * Sign-out reads no body and only ever ends a session, so what a client sends with it must not
 * keep the session alive (a refusal that clients ignore would).
 */
const LOGOUT = /^\/api\/auth\/logout\/?$/;

/**
 * Cross-site request forgery guard for the JSON API. A browser's non-empty body must be
 * `application/json` (415 otherwise: a form or `text/plain` body is what a foreign page can send
 * without asking), and a state-changing call that a browser made from another origin is refused
 * (403) unless it is authenticated by a bearer token alone, which no foreign page can attach
 * (a cookie or an identity-aware proxy's assertion beside it rules that out).
 * A client that is no browser (no Origin, no Sec-Fetch-* header: curl, scripts) or that sends a
 * bearer token has its body read as JSON whatever its Content-Type, as Semaphore reads it
 * (`curl -d` labels JSON as a form). A request without a body (curl's bodyless DELETE, a POST
 * with `Content-Length: 0`, an empty chunked body) has nothing to forge and passes whatever its
 * Content-Type. Runs after the body-size limit, which bounds what reading an unannounced body may hold.
 * @example api.use('*', bodyLimit(...)); api.use('*', refuseForeignWrites());
 */
export function refuseForeignWrites(): MiddlewareHandler<AppEnv> {
  return async function refuseForeignWrite(c, next) {
    if (WEBHOOK_RECEIVER.test(c.req.path)) return next();
    const bearer = /bearer/i.test(c.req.header('authorization') ?? '');
    const typeMatters = !bearer && showsBrowser(c);
    if (typeMatters && !LOGOUT.test(c.req.path) && !isJson(c.req.header('content-type')) && await hasBody(c)) {
      throw new ApiError('unsupported_media_type', 'Content-Type must be application/json');
    }
    // a proxy's assertion rides along with every browser request, as a cookie does
    const ambient = c.req.header('cookie') || proxyAssertion(c.var.deps.config.proxy_auth, (n) => c.req.header(n));
    const bearerOnly = /bearer/i.test(c.req.header('authorization') ?? '') && !ambient;
    if (isStateChanging(c.req.method) && !bearerOnly && isForeignRequest((n) => c.req.header(n), c.var.deps.config.web_host)) {
      throw new ApiError('forbidden', 'cross-origin request refused');
    }
    return next();
  };
}

/**
 * Whether the request carries at least one byte. A declared length answers it; otherwise (a
 * chunked body, or a request built in-process) the body is read, and Hono keeps what it read
 * for the route. Node hands every POST and DELETE a body stream, empty or not, so the stream's
 * presence alone says nothing.
 */
async function hasBody(c: Context<AppEnv>): Promise<boolean> {
  const length = c.req.header('content-length');
  if (length !== undefined && !c.req.header('transfer-encoding')) return Number(length) > 0;
  if (!c.req.raw.body) return false;
  return (await c.req.arrayBuffer()).byteLength > 0;
}

/** Headers every current browser adds to a page's or script's request, and non-browser clients do not. */
const BROWSER_HEADERS = ['origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest'];

function showsBrowser(c: Context<AppEnv>): boolean {
  return BROWSER_HEADERS.some((name) => c.req.header(name) !== undefined);
}

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}
