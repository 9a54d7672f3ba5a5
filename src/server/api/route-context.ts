import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { TaskRow, TemplateRow } from '../db/schema.ts';
import type { ScheduleRow } from '../domain/schedules/schedule.ts';
import type { Db, Tx } from '../db/database.ts';
import { findSchedule } from '../domain/schedules/schedule.service.ts';
import { idParam } from '../http/validation.ts';
import type { Actor } from '../domain/project-resource.ts';
import { findTemplate } from '../domain/templates/template.service.ts';
import { findProjectTask } from '../domain/tasks/task.repository.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';
import { assertTemplateVisible } from '../domain/templates/template-visibility.ts';

// What project routes read from the request: who acts, and the rows the URL names.

/** The project and user a project-scoped change is made by, for events. */
export function actorOf(c: Context<AppEnv>): Actor {
  return { projectId: c.var.project.id, userId: c.var.user.id };
}

/** The bits a role given by the caller (a member's role, an invitation's) may hold at most; null for an admin (any role). */
export function callerBits(c: Context<AppEnv>): number | null {
  return c.var.user.admin ? null : c.var.permissions;
}

/** `?limit=` clamped to 1..max; absent or invalid gives `fallback`. */
export function limitQuery(c: Context, max: number, fallback = max): number {
  const raw = c.req.query('limit');
  if (!raw || !/^\d+$/.test(raw)) return fallback;
  return Math.min(Math.max(Number(raw), 1), max);
}

/** The URL's `:template_id` template of the project the caller may see (read in `db`, a transaction too), or an empty 404. */
export async function templateOf(c: Context<AppEnv>, db: Db | Tx = c.var.deps.db): Promise<TemplateRow> {
  const template = await findTemplate(db, c.var.project.id, idParam(c, 'template_id'));
  assertTemplateVisible(await templateScopeOf(c, db), template.id);
  return template;
}

/** The URL's `:schedule_id` schedule of the project, of a template the caller may see, or an empty 404. */
export async function scheduleOf(c: Context<AppEnv>, db: Db | Tx = c.var.deps.db): Promise<ScheduleRow> {
  const schedule = await findSchedule(db, c.var.project.id, idParam(c, 'schedule_id'));
  assertTemplateVisible(await templateScopeOf(c, db), schedule.template_id);
  return schedule;
}

/** The URL's `:task_id` task of the project, of a template the caller may see, or an empty 404. */
export async function taskOf(c: Context<AppEnv>): Promise<TaskRow> {
  const task = await findProjectTask(c.var.deps.db, c.var.project.id, idParam(c, 'task_id'));
  assertTemplateVisible(await templateScopeOf(c), task.template_id);
  return task;
}
