import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { TaskRow, TemplateRow } from '../db/schema.ts';
import { idParam } from '../http/validation.ts';
import type { Actor } from '../domain/project-resource.ts';
import { findTemplate } from '../domain/templates/template.service.ts';
import { findProjectTask } from '../domain/tasks/task.repository.ts';

// What project routes read from the request: who acts, and the rows the URL names.

/** The project and user a project-scoped change is made by, for events. */
export function actorOf(c: Context<AppEnv>): Actor {
  return { projectId: c.var.project.id, userId: c.var.user.id };
}

/** `?limit=` clamped to 1..max; absent or invalid gives `fallback`. */
export function limitQuery(c: Context, max: number, fallback = max): number {
  const raw = c.req.query('limit');
  if (!raw || !/^\d+$/.test(raw)) return fallback;
  return Math.min(Math.max(Number(raw), 1), max);
}

/** The URL's `:template_id` template of the project, or an empty 404. */
export function templateOf(c: Context<AppEnv>): Promise<TemplateRow> {
  return findTemplate(c.var.deps.db, c.var.project.id, idParam(c, 'template_id'));
}

/** The URL's `:task_id` task of the project, or an empty 404. */
export function taskOf(c: Context<AppEnv>): Promise<TaskRow> {
  return findProjectTask(c.var.deps.db, c.var.project.id, idParam(c, 'task_id'));
}
