import { PERMISSION, type ProjectRole, type User } from './types.ts';

/**
 * Seed 001 §6: create/edit/delete of project resources needs "manage project resources" (4);
 * admins pass every check.
 * @example const canManage = mayManage(Astro.locals.user, ctx.role, PERMISSION.manageResources);
 */
export function mayManage(user: User | undefined, role: ProjectRole, bit: number = PERMISSION.manageResources): boolean {
  return Boolean(user?.admin) || (role.permissions & bit) === bit;
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

