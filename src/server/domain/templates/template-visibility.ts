import type { Db, Tx } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { hasPermission, Permission, PROJECT_ROLES } from '../../access/permissions.ts';
import { restrictedTemplates } from './template-grants.ts';
import { roleBits } from '../roles/role.service.ts';

/**
 * Which of a project's templates a caller may see: `null` every one, else only these ids (an
 * empty list: none). Every read path of templates, their tasks, logs and schedules asks this
 * one function, so a template out of sight leaves no trace anywhere.
 */
export type TemplateScope = readonly number[] | null;

/** A caller in a project: who they are and the bits they act with (auth/project-scope.ts). */
export interface TemplateViewer {
  projectId: number;
  userId: number;
  admin: boolean | number;
  /** the member's role slug ('' for an admin who is no member) */
  role: string;
  permissions: number;
}

/** Who runs the project (Semaphore's owner; a custom role holding both bits): grants never hide a template from them. */
const OWNER_BITS = Permission.UpdateProject | Permission.ManageUsers;

function seesAll(viewer: TemplateViewer): boolean {
  return Boolean(viewer.admin) || hasPermission(viewer.permissions, OWNER_BITS);
}

/**
 * Admins and owners see every template. Other members see none without ViewTemplates (16;
 * Semaphore's four roles always act with it), else every template except those with grants
 * (domain/templates/template-grants.ts) naming neither their role nor them.
 * @example await visibleTemplates(db, { projectId: 1, userId: 7, admin: false, role: 'custom', permissions: Permission.RunTasks }) // []
 */
export async function visibleTemplates(db: Db | Tx, viewer: TemplateViewer): Promise<TemplateScope> {
  if (seesAll(viewer)) return null;
  if (!hasPermission(viewer.permissions, Permission.ViewTemplates)) return [];
  const { hidden } = await restrictedTemplates(db, viewer.projectId, viewer);
  if (!hidden.size) return null;
  const all = await db.selectFrom('template').select('id').where('project_id', '=', viewer.projectId).orderBy('id').execute();
  return all.map((t) => t.id).filter((id) => !hidden.has(id));
}

/** Whether the viewer may start the template, as far as seeing and grants go (RunTasks is the caller-role rule's). */
export async function mayRunTemplate(db: Db | Tx, viewer: TemplateViewer, templateId: number): Promise<boolean> {
  if (seesAll(viewer)) return true;
  if (!seesTemplate(await visibleTemplates(db, viewer), templateId)) return false;
  const { seeOnly } = await restrictedTemplates(db, viewer.projectId, viewer);
  return !seeOnly.has(templateId);
}

export function seesTemplate(scope: TemplateScope, templateId: number | null): boolean {
  return scope === null || (templateId !== null && scope.includes(templateId));
}

/** 404, as for a template that does not exist, unless the scope holds it. */
export function assertTemplateVisible(scope: TemplateScope, templateId: number | null): void {
  if (!seesTemplate(scope, templateId)) throw notFound();
}

/**
 * The ids an SQL `in` filter takes: the scope's, or one no row has (ids start at 1) for an
 * empty scope, since `in ()` is no valid SQL.
 */
export function scopeIds(scope: readonly number[]): number[] {
  return scope.length ? [...scope] : [0];
}

/**
 * Projects among `projectIds` where a member may see less than every template: some template
 * or view has grants, or the project has custom roles, or a member holds a server role (Semaphore's
 * four roles all see every template).
 */
async function restrictingProjects(db: Db | Tx, projectIds: readonly number[]): Promise<Set<number>> {
  if (!projectIds.length) return new Set();
  const [granted, viewed, roles, members] = await Promise.all([
    db.selectFrom('template_grant').innerJoin('template', 'template.id', 'template_grant.template_id').select('template.project_id')
      .where('template.project_id', 'in', [...projectIds]).distinct().execute(),
    db.selectFrom('view_grant').innerJoin('view', 'view.id', 'view_grant.view_id').select('view.project_id')
      .where('view.project_id', 'in', [...projectIds]).distinct().execute(),
    db.selectFrom('project_role').select('project_id').where('project_id', 'in', [...projectIds]).distinct().execute(),
    db.selectFrom('project_user').select('project_id').where('project_id', 'in', [...projectIds]).where('role', 'not in', [...PROJECT_ROLES]).distinct().execute(),
  ]);
  return new Set([...granted, ...viewed, ...roles, ...members].map((r) => r.project_id));
}

/**
 * A user's template scope in each of `projectIds`, for what reaches them outside a project
 * route (the websocket, the wall board): the same visibleTemplates, asked only in projects
 * where it could hide something. A project they are no member of shows them nothing.
 */
export async function templateScopesOf(db: Db | Tx, user: { id: number; admin: boolean | number }, projectIds: readonly number[]): Promise<Map<number, TemplateScope>> {
  const scopes = new Map<number, TemplateScope>(projectIds.map((id) => [id, null]));
  if (user.admin) return scopes;
  for (const projectId of await restrictingProjects(db, projectIds)) {
    const member = await db.selectFrom('project_user').select('role').where('project_id', '=', projectId).where('user_id', '=', user.id).executeTakeFirst();
    const permissions = member ? await roleBits(db, projectId, member.role) : 0;
    scopes.set(projectId, member ? await visibleTemplates(db, { projectId, userId: user.id, admin: false, role: member.role, permissions }) : []);
  }
  return scopes;
}

/** The templates of the project a scope leaves out (none for `null`). */
export async function hiddenTemplates(db: Db | Tx, projectId: number, scope: TemplateScope): Promise<number[]> {
  if (scope === null) return [];
  const seen = new Set(scope);
  const all = await db.selectFrom('template').select('id').where('project_id', '=', projectId).orderBy('id').execute();
  return all.map((t) => t.id).filter((id) => !seen.has(id));
}

/** The templates a user does not see in any of the projects they belong to (what reaches them across projects: the activity log). */
export async function hiddenTemplatesOfUser(db: Db | Tx, user: { id: number; admin: boolean | number }): Promise<number[]> {
  if (user.admin) return [];
  const projectIds = (await db.selectFrom('project_user').select('project_id').where('user_id', '=', user.id).execute()).map((r) => r.project_id);
  const hidden: number[] = [];
  for (const [projectId, scope] of await templateScopesOf(db, user, projectIds)) hidden.push(...await hiddenTemplates(db, projectId, scope));
  return hidden;
}
