import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../http/context.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { idParam } from '../http/validation.ts';
import { hasPermission } from '../access/permissions.ts';
import { routePermission } from '../access/route-permissions.ts';
import { roleBits } from '../domain/roles/role.service.ts';
import { setAuditProject } from '../domain/audit/audit-context.ts';

/**
 * Loads `/project/:project_id` and the caller's membership. Non-members get 404 (the project
 * is invisible to them); system admins pass with role "" (reference §1). `permissions` holds
 * the bits the caller acts with (a custom role's from its row).
 */
export function projectScope(): MiddlewareHandler<AppEnv> {
  return async function loadProjectMembership(c, next) {
    const { db } = c.var.deps;
    const projectId = idParam(c, 'project_id');
    const project = await db.selectFrom('project').selectAll().where('id', '=', projectId).executeTakeFirst();
    if (!project) throw notFound();
    const member = await db.selectFrom('project_user').select('role')
      .where('project_id', '=', projectId).where('user_id', '=', c.var.user.id).executeTakeFirst();
    if (!member && !c.var.user.admin) throw notFound();
    c.set('project', project);
    setAuditProject(project);
    c.set('role', member?.role ?? '');
    c.set('permissions', member ? await roleBits(db, projectId, member.role) : 0);
    return next();
  };
}

/**
 * Guards every project route by the one route table (access/route-permissions.ts): the caller
 * must hold the bit the answering route needs; admins pass. Refusals are 403 with no body.
 */
export function projectRouteGuard(): MiddlewareHandler<AppEnv> {
  return async function checkProjectPermission(c, next) {
    const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
    const needed = route ? routePermission(`${route.method} ${route.path}`) : 0;
    if (needed && !c.var.user.admin && !hasPermission(c.var.permissions, needed)) throw forbidden();
    return next();
  };
}
