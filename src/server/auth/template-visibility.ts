import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { hasPermission, Permission } from '../access/permissions.ts';

/**
 * Which of a project's templates a caller may see: `null` every one, else only these ids (an
 * empty list: none). Every read path of templates, their tasks, logs and schedules asks this
 * one function, so a template out of sight leaves no trace anywhere.
 */
export type TemplateScope = readonly number[] | null;

export interface TemplateViewer {
  admin: boolean | number;
  /** the bits the caller acts with in the project (auth/project-scope.ts) */
  permissions: number;
}

/**
 * Admins and roles holding ViewTemplates (16; Semaphore's four roles always act with it) see
 * every template; a custom role without it sees none.
 * @example visibleTemplates({ admin: false, permissions: Permission.RunTasks }) // []
 */
export function visibleTemplates(viewer: TemplateViewer): TemplateScope {
  if (viewer.admin || hasPermission(viewer.permissions, Permission.ViewTemplates)) return null;
  return [];
}

/** The project route's caller's scope. */
export function templateScopeOf(c: Context<AppEnv>): TemplateScope {
  return visibleTemplates({ admin: c.var.user.admin, permissions: c.var.permissions });
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
