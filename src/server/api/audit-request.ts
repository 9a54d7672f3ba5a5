import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../http/context.ts';
import { apiClientAddress } from '../http/api-client-facts.ts';
import { watchAcceptedBodies } from '../http/validation.ts';
import { runWithAuditRequest, setAuditFields, type AuditRequest } from '../domain/audit/audit-context.ts';
import { isStateChanging } from '../domain/audit/audit-actions.ts';
import { auditEnabled, auditUnrecorded } from '../domain/audit/audit.writer.ts';

/**
 * The audit trail's one hook into the API: makes the request's address, agent and route known
 * to the audit writer for the whole request, and after a successful state-changing request
 * that recorded nothing itself, records it from its route (the safety net that keeps a new
 * route from going unaudited). Stands aside while auditing is off.
 */
export function auditRequests(): MiddlewareHandler<AppEnv> {
  watchAcceptedBodies(setAuditFields);
  return async function trackAuditRequest(c, next) {
    if (!auditEnabled()) return next();
    const request = new RequestFacts(c);
    try {
      await runWithAuditRequest(request, async () => {
        await next();
        if (request.written || request.unchanged || c.res.status >= 400 || !request.handled || !isStateChanging(c.req.method, request.route)) return;
        request.params = c.req.param() as Record<string, string>;
        await auditUnrecorded(c.var.deps.db, request);
      });
    } finally {
      request.closed = true;
    }
  };
}

/**
 * An audit request whose route, address and agent are read from the request only when a row
 * is written: most requests write none, and a write pays for them once.
 */
class RequestFacts implements AuditRequest {
  readonly method: string;
  actor: AuditRequest['actor'] = null;
  project: AuditRequest['project'] = null;
  fields: string[] = [];
  params: Record<string, string> = {};
  written = 0;
  auditId: number | null = null;
  unchanged = false;
  closed = false;
  itemised?: boolean;
  readonly #c: Context<AppEnv>;
  #route?: { route: string; handled: boolean };
  #clientIp?: string;

  constructor(c: Context<AppEnv>) {
    this.#c = c;
    this.method = c.req.method;
  }

  /** "METHOD /api/route/:pattern" of the handler that answered (the path when none did) */
  get route(): string {
    return this.#matched().route;
  }

  /** whether a route handler (not only middleware) answered */
  get handled(): boolean {
    return this.#matched().handled;
  }

  get clientIp(): string {
    return (this.#clientIp ??= apiClientAddress(this.#c));
  }

  get userAgent(): string {
    return this.#c.req.header('user-agent') ?? '';
  }

  #matched(): { route: string; handled: boolean } {
    if (this.#route) return this.#route;
    const routes = matchedRoutes(this.#c);
    for (let i = routes.length - 1; i >= 0; i--) {
      if (routes[i]!.method !== 'ALL') return (this.#route = handledRoute(routes[i]!));
    }
    return (this.#route = { route: `${this.#c.req.method} ${this.#c.req.path}`, handled: false });
  }
}

type RouterRoute = ReturnType<typeof matchedRoutes>[number];

/** Each route's audit name, made once: Hono keeps one object per registered route. */
const routeNames = new WeakMap<RouterRoute, { route: string; handled: true }>();

function handledRoute(route: RouterRoute): { route: string; handled: true } {
  let named = routeNames.get(route);
  if (!named) routeNames.set(route, named = { route: `${route.method} ${route.path}`, handled: true });
  return named;
}
