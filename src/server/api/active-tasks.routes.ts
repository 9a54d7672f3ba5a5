import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';
import { idParam } from '../http/validation.ts';
import { listTaskPool } from '../domain/tasks/task-pool.ts';
import { stopTask } from '../domain/tasks/task.service.ts';
import { isFinished } from '../domain/tasks/task-status.ts';
import { auditNothingChanged } from '../domain/audit/audit-context.ts';

/**
 * `/api/tasks` (system admins): the global task pool in Semaphore's shape, and
 * `DELETE /api/tasks/:task_id`, which stops a queued or running task of any project.
 */
export const activeTasksRoutes = new Hono<AppEnv>();

activeTasksRoutes.use('*', async function adminsOnly(c, next) {
  if (!c.var.user.admin) throw forbidden();
  await next();
});

activeTasksRoutes.get('/', async (c) => c.json(await listTaskPool(c.var.deps.db)));

/** As in Semaphore, a task that is not in the pool (finished, or no such task) is no error: 204. */
activeTasksRoutes.delete('/:task_id', async (c) => {
  const task = await c.var.deps.db.selectFrom('task').selectAll().where('id', '=', idParam(c, 'task_id')).executeTakeFirst();
  if (task && !isFinished(task.status)) await stopTask(c.var.deps, task, false);
  else auditNothingChanged();
  return c.body(null, 204);
});
