import type { Db, Tx } from '../../db/database.ts';
import { listTasksWithTpl } from '../tasks/task.repository.ts';
import type { TaskWithTpl } from '../tasks/task.ts';

/**
 * Tasks of one template, newest first, at most `limit`; `status` narrows to one status
 * (the deploy dialog asks for `status=success` builds).
 * @example await listTemplateTasks(db, 1, 4, { limit: 20, status: 'success' });
 */
export function listTemplateTasks(db: Db | Tx, projectId: number, templateId: number, options: { limit: number; status?: string; offset?: number }): Promise<TaskWithTpl[]> {
  return listTasksWithTpl(db, { projectId, templateId, statuses: options.status ? [options.status] : undefined, limit: options.limit, offset: options.offset });
}

/** How many tasks the template has (the `X-Total-Count` of a paged task list). */
export async function countTemplateTasks(db: Db | Tx, templateId: number, status?: string): Promise<number> {
  let query = db.selectFrom('task').select((e) => e.fn.countAll<number>().as('n')).where('template_id', '=', templateId);
  if (status) query = query.where('status', '=', status);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** The newest task and the task count of each template given. */
export async function summariseTemplateTasks(db: Db | Tx, templateIds: number[]): Promise<Map<number, { lastTask: TaskWithTpl | null; taskCount: number }>> {
  const summary = new Map<number, { lastTask: TaskWithTpl | null; taskCount: number }>();
  for (const id of templateIds) summary.set(id, { lastTask: null, taskCount: 0 });
  if (templateIds.length === 0) return summary;
  const counts = await db.selectFrom('task').select(['template_id', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.max('id').as('last_id')])
    .where('template_id', 'in', templateIds).groupBy('template_id').execute();
  const lastIds = counts.map((c) => Number(c.last_id));
  const lastTasks = lastIds.length ? await listTasksWithTpl(db, { ids: lastIds, limit: lastIds.length }) : [];
  for (const c of counts) {
    summary.set(c.template_id, { taskCount: Number(c.n), lastTask: lastTasks.find((t) => t.id === Number(c.last_id)) ?? null });
  }
  return summary;
}
