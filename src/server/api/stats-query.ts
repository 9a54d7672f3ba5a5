import type { Context } from 'hono';
import { badRequest } from '../http/errors.ts';
import type { TaskStatsQuery } from '../domain/stats/task-stats.ts';

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

/** Reads `?start=&end=&user_id=` of the stats routes; bad values are 400s. */
export function readStatsQuery(c: Context, projectId: number, templateId?: number): TaskStatsQuery {
  const q: TaskStatsQuery = { projectId, templateId };
  for (const name of ['start', 'end'] as const) {
    const value = c.req.query(name);
    if (!value) continue;
    if (!DATE.test(value) || Number.isNaN(Date.parse(value))) throw badRequest(`${name}: must be a date (YYYY-MM-DD) or an ISO date-time`);
    q[name] = value.length === 10 ? value : new Date(value).toISOString();
  }
  const userId = c.req.query('user_id');
  if (userId) {
    if (!/^\d+$/.test(userId)) throw badRequest('user_id: must be a positive integer');
    q.userId = Number(userId);
  }
  return q;
}
