import type { Db } from '../../db/database.ts';
import { scopeIds, type TemplateScope } from '../templates/template-visibility.ts';

/** One day of the dashboard chart. */
export interface TaskStatsPoint {
  date: string;
  count_by_status: { success: number; error: number; stopped: number };
}

export interface TaskStatsQuery {
  projectId: number;
  templateId?: number;
  /** only tasks of the templates the caller sees (domain/templates/template-visibility.ts) */
  templates?: TemplateScope;
  userId?: number;
  /** ISO date or date-time; inclusive */
  start?: string;
  /** ISO date or date-time; a bare date includes that whole day */
  end?: string;
}

const COUNTED = ['success', 'error', 'stopped'] as const;

/**
 * Finished tasks per day (UTC, by creation time) and status, oldest day first. Days without
 * finished tasks are left out; the console pads the range with zero points.
 * @example await countTasksByDay(db, { projectId: 1, start: '2026-11-01' });
 */
export async function countTasksByDay(db: Db, q: TaskStatsQuery): Promise<TaskStatsPoint[]> {
  let query = db.selectFrom('task').select(['created', 'status']).where('project_id', '=', q.projectId).where('status', 'in', [...COUNTED]);
  if (q.templateId !== undefined) query = query.where('template_id', '=', q.templateId);
  if (q.templates) query = query.where('template_id', 'in', scopeIds(q.templates));
  if (q.userId !== undefined) query = query.where('user_id', '=', q.userId);
  if (q.start) query = query.where('created', '>=', q.start);
  if (q.end) query = query.where('created', '<', q.end.length === 10 ? `${q.end}T99` : q.end);
  const rows = await query.orderBy('created').execute();
  const days = new Map<string, TaskStatsPoint>();
  for (const row of rows) {
    const date = row.created.slice(0, 10);
    let point = days.get(date);
    if (!point) days.set(date, point = { date, count_by_status: { success: 0, error: 0, stopped: 0 } });
    point.count_by_status[row.status as (typeof COUNTED)[number]] += 1;
  }
  return [...days.values()];
}
