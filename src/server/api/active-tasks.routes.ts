import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';
import { listTasksWithTpl } from '../domain/tasks/task.repository.ts';
import { ACTIVE_STATUSES } from '../engine/task-status.ts';

/**
 * `GET /api/tasks` (system admins): every queued or running task with where it is —
 * "Queue", "Local Running", or "Runner #n" once remote runners exist.
 */
export const activeTasksRoutes = new Hono<AppEnv>();

activeTasksRoutes.get('/', async (c) => {
  if (!c.var.user.admin) throw forbidden();
  const tasks = await listTasksWithTpl(c.var.deps.db, { statuses: ['waiting', ...ACTIVE_STATUSES], limit: 10_000 });
  return c.json(tasks.map((t) => ({ ...t, location: t.status === 'waiting' ? 'Queue' : 'Local Running' })));
});
