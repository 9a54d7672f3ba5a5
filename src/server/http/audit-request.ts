import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from './context.ts';
import { apiClientFacts } from './api-client-facts.ts';
import { runWithAuditRequest, type AuditRequest } from '../domain/audit/audit-context.ts';
import { isStateChanging } from '../domain/audit/audit-actions.ts';
import { auditUnrecorded } from '../domain/audit/audit.writer.ts';

/**
 * The audit trail's one hook into the API: makes the request's address, agent and route known
 * to the audit writer for the whole request, and after a successful state-changing request
 * that recorded nothing itself, records it from its route (the safety net that keeps a new
 * route from going unaudited).
 */
export function auditRequests(): MiddlewareHandler<AppEnv> {
  return async function trackAuditRequest(c, next) {
    const handler = matchedRoutes(c).filter((r) => r.method !== 'ALL').at(-1);
    const route = handler ? `${handler.method} ${handler.path}` : `${c.req.method} ${c.req.path}`;
    const request: AuditRequest = {
      route, method: c.req.method, clientIp: apiClientFacts(c).address, userAgent: c.req.header('user-agent') ?? '',
      actor: null, project: null, fields: [], params: {}, written: 0, auditId: null, unchanged: false, closed: false,
    };
    try {
      await runWithAuditRequest(request, async () => {
        await next();
        request.params = c.req.param() as Record<string, string>;
        if (handler && c.res.status < 400 && isStateChanging(c.req.method, route)) await auditUnrecorded(c.var.deps.db, request);
      });
    } finally {
      request.closed = true;
    }
  };
}
