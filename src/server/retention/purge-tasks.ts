import type { Config } from '../config/config.ts';
import type { Db } from '../db/database.ts';
import { FINISHED_STATUSES } from '../domain/tasks/task-status.ts';
import { yieldToEventLoop } from '../lib/time-slice.ts';

/** What a purge removed: task rows, and output lines (of removed tasks and of kept ones). */
export interface PurgeResult { tasks: number; output_lines: number }

export interface PurgeOptions {
  /** rows per statement: small enough that no single delete holds the database for long */
  batchSize?: number;
  now?: Date;
}

const DAY_MS = 86_400_000;
const finished = [...FINISHED_STATUSES];


/**
 * Applies retention to every project: tasks older than `task_retention_days`, tasks beyond the
 * newest `task_retention_count` per template, and the output of tasks that ended more than
 * `output_retention_days` ago (the task rows stay). A project's 0 falls back to the global
 * setting (`task_retention_days`, `max_tasks_per_template`, `output_retention_days`). Only
 * finished tasks are touched. Deletes go in small batches with a pause between them.
 * @example const removed = await purgeExpiredTasks(db, config);
 */
export async function purgeExpiredTasks(db: Db, config: Config, options: PurgeOptions = {}): Promise<PurgeResult> {
  const batch = options.batchSize ?? 500;
  const now = (options.now ?? new Date()).getTime();
  const result: PurgeResult = { tasks: 0, output_lines: 0 };
  const projects = await db.selectFrom('project').select(['id', 'task_retention_days', 'task_retention_count', 'output_retention_days']).execute();
  for (const project of projects) {
    const days = project.task_retention_days || config.task_retention_days;
    const keep = project.task_retention_count || config.max_tasks_per_template;
    const outputDays = project.output_retention_days || config.output_retention_days;
    if (days > 0) {
      const cutoff = new Date(now - days * DAY_MS).toISOString();
      await deleteTasksWhile(db, result, batch, () => db.selectFrom('task').select('id').where('project_id', '=', project.id)
        .where('status', 'in', finished).where('created', '<', cutoff).orderBy('id').limit(batch).execute());
    }
    if (keep > 0) {
      const templates = await db.selectFrom('template').select('id').where('project_id', '=', project.id).execute();
      for (const template of templates) {
        await deleteTasksWhile(db, result, batch, () => db.selectFrom('task').select('id').where('template_id', '=', template.id)
          .where('status', 'in', finished).orderBy('id', 'desc').offset(keep).limit(batch).execute());
      }
    }
    if (outputDays > 0) {
      const cutoff = new Date(now - outputDays * DAY_MS).toISOString();
      for (;;) {
        const tasks = await db.selectFrom('task').select('id').where('project_id', '=', project.id).where('status', 'in', finished)
          .where('end', '<', cutoff).where((eb) => eb.exists(eb.selectFrom('task_output').select('task_output.id').whereRef('task_output.task_id', '=', 'task.id')))
          .limit(batch).execute();
        if (!tasks.length) break;
        result.output_lines += await deleteOutputOf(db, tasks.map((t) => t.id), batch * 10);
      }
    }
  }
  return result;
}

async function deleteTasksWhile(db: Db, result: PurgeResult, batch: number, next: () => Promise<{ id: number }[]>): Promise<void> {
  for (;;) {
    const ids = (await next()).map((r) => r.id);
    if (!ids.length) return;
    result.output_lines += await deleteOutputOf(db, ids, batch * 10);
    const deleted = await db.deleteFrom('task').where('id', 'in', ids).executeTakeFirst();
    result.tasks += Number(deleted.numDeletedRows);
    await yieldToEventLoop();
  }
}

/** Output lines of the tasks, `linesPerStatement` at a time (one task can have a million lines). */
async function deleteOutputOf(db: Db, taskIds: number[], linesPerStatement: number): Promise<number> {
  await db.deleteFrom('task_output_block').where('task_id', 'in', taskIds).execute();
  let total = 0;
  for (;;) {
    const deleted = await db.deleteFrom('task_output')
      .where('id', 'in', (eb) => eb.selectFrom('task_output').select('id').where('task_id', 'in', taskIds).limit(linesPerStatement))
      .executeTakeFirst();
    const n = Number(deleted.numDeletedRows);
    total += n;
    await yieldToEventLoop();
    if (n < linesPerStatement) return total;
  }
}
