import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { parseWith } from '../http/validation.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';
import { lastTasksQuerySchema, pageTasks, TASK_PAGE_PARAMS, taskPageQuerySchema } from '../domain/tasks/task-cursor.ts';

/** Whether the query asks for a cursor page (`before_id`, `after_id` or a filter other than those in `except`). */
export function wantsTaskPage(c: Context<AppEnv>, except: readonly string[] = []): boolean {
  return TASK_PAGE_PARAMS.some((name) => !except.includes(name) && c.req.query(name) !== undefined);
}

/**
 * Answers one cursor page of tasks (of templates the caller sees) newest first; `X-Has-Next: true` when older tasks follow the
 * page, `X-Has-Prev: true` when newer ones precede it.
 */
export async function respondWithTaskPage(c: Context<AppEnv>, scope: { projectId: number; templateId?: number }, defaultLimit: number) {
  const query = parseWith(taskPageQuerySchema, c.req.query());
  const page = await pageTasks(c.var.deps.db, { ...scope, templates: await templateScopeOf(c) }, query, defaultLimit);
  c.header('X-Has-Next', String(page.hasOlder));
  c.header('X-Has-Prev', String(page.hasNewer));
  return c.json(page.tasks);
}

/** Most tasks one `…/tasks/last` page holds, and how many when the query names no count. */
const LAST_TASKS = 200;

/**
 * `GET …/tasks/last` as Semaphore's develop pages it (its docs/tasks-api-pagination.md): the
 * newest `count` tasks (`limit`, the older name, works too; at most and by default 200), those
 * older than the task `before` when given, newest first, with `X-Has-Next: true` when older
 * tasks follow. A count that is no positive number is the default, as before.
 */
export async function respondWithLastTasks(c: Context<AppEnv>, scope: { projectId: number; templateId?: number }) {
  const { before } = parseWith(lastTasksQuerySchema.pick({ before: true }), { before: c.req.query('before') });
  const asked = Number(c.req.query('count') ?? c.req.query('limit'));
  const count = Number.isInteger(asked) && asked > 0 ? Math.min(asked, LAST_TASKS) : LAST_TASKS;
  const page = await pageTasks(c.var.deps.db, { ...scope, templates: await templateScopeOf(c) }, { before_id: before, limit: count, status: undefined }, count);
  c.header('X-Has-Next', String(page.hasOlder));
  return c.json(page.tasks);
}
