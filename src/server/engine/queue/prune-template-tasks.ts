import type { Db } from '../../db/database.ts';
import { FINISHED_STATUSES } from '../../domain/tasks/task-status.ts';

/**
 * Retention (`max_tasks_per_template`): keeps the newest `keep` finished tasks of a template
 * and deletes older finished ones with their output. Active and waiting tasks are never touched.
 * @example await pruneTemplateTasks(db, templateId, 100); // number of tasks deleted
 */
export async function pruneTemplateTasks(db: Db, templateId: number, keep: number): Promise<number> {
  if (keep <= 0) return 0;
  const old = await db.selectFrom('task').select('id').where('template_id', '=', templateId)
    .where('status', 'in', [...FINISHED_STATUSES]).orderBy('id', 'desc').offset(keep).limit(100_000).execute();
  if (!old.length) return 0;
  const ids = old.map((r) => r.id);
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < ids.length; i += 500) {
      const slice = ids.slice(i, i + 500);
      await tx.deleteFrom('task_output').where('task_id', 'in', slice).execute();
      await tx.deleteFrom('task').where('id', 'in', slice).execute();
    }
  });
  return ids.length;
}
