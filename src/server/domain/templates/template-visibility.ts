import type { Db, Tx } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { hasPermission, Permission } from '../../access/permissions.ts';
import { restrictedTemplates } from './template-grants.ts';

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
