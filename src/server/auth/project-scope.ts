import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { idParam } from '../http/validation.ts';
import { hasPermission, permissionsOf } from '../access/permissions.ts';
import { setAuditProject } from '../domain/audit/audit-context.ts';

/**
 * Loads `/project/:project_id` and the caller's membership. Non-members get 404 (the project
 * is invisible to them); system admins pass with role "" (reference §1).
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
    c.set('permissions', member ? permissionsOf(member.role) : 0);
    return next();
  };
}

/**
 * Guards a write route: the caller's role must hold every bit of `needed`; admins pass.
 * @example router.post('/', can(Permission.ManageResources), createKey)
 */
export function can(needed: number): MiddlewareHandler<AppEnv> {
  return async function checkProjectPermission(c, next) {
    if (!c.var.user.admin && !hasPermission(c.var.permissions, needed)) throw forbidden();
    return next();
  };
}
