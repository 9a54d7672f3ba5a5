import { PERMISSION, type ProjectRole, type User } from './types.ts';
import { effectivePermissions, hasPermission, isBuiltInRole } from '../server/access/permissions.ts';

/**
 * Seed 001 §6: create/edit/delete of project resources needs "manage project resources" (4), or
 * the finer bit of that resource (issue 52: a coarse bit includes its parts, as on the server);
 * admins pass every check.
 * @example const canManage = mayManage(Astro.locals.user, ctx.role, PERMISSION.editInventories);
 */
export function mayManage(user: User | undefined, role: ProjectRole, bit: number = PERMISSION.manageResources): boolean {
  return Boolean(user?.admin) || hasPermission(effectivePermissions(role.permissions, isBuiltInRole(role.role)), bit);
}

/**
 * The dialog a resource list shows from its URL: `?edit=new`, `?edit=<id>` or `?delete=<id>`.
 * @example const { edit, del } = resourceDialog(Astro.url);
 */
export function resourceDialog(url: URL): { edit: 'new' | number | null; del: number | null } {
  const edit = url.searchParams.get('edit');
  const del = url.searchParams.get('delete');
  const id = (text: string | null) => (text && /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null);
  return { edit: edit === 'new' ? 'new' : id(edit), del: id(del) };
}

