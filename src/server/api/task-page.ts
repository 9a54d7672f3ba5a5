import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { parseWith } from '../http/validation.ts';
import { pageTasks, TASK_PAGE_PARAMS, taskPageQuerySchema } from '../domain/tasks/task-cursor.ts';

/** Whether the query asks for a cursor page (`before_id`, `after_id` or a filter other than those in `except`). */
export function wantsTaskPage(c: Context<AppEnv>, except: readonly string[] = []): boolean {
  return TASK_PAGE_PARAMS.some((name) => !except.includes(name) && c.req.query(name) !== undefined);
}

/**
 * Answers one cursor page of tasks newest first; `X-Has-Next: true` when older tasks follow the
 * page, `X-Has-Prev: true` when newer ones precede it.
 */
export async function respondWithTaskPage(c: Context<AppEnv>, scope: { projectId: number; templateId?: number }, defaultLimit: number) {
  const query = parseWith(taskPageQuerySchema, c.req.query());
  const page = await pageTasks(c.var.deps.db, scope, query, defaultLimit);
  c.header('X-Has-Next', String(page.hasOlder));
  c.header('X-Has-Prev', String(page.hasNewer));
  return c.json(page.tasks);
}
