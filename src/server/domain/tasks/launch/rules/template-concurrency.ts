import { sql } from 'kysely';
import type { Tx } from '../../../../db/database.ts';
import { isPostgres } from '../../../../db/dialect.ts';
import { ApiError } from '../../../../http/errors.ts';
import { templateConcurrency } from '../../../templates/concurrency-fields.ts';
import { ACTIVE_STATUSES, isActive } from '../../task-status.ts';
import { stopTask } from '../../task.service.ts';
import type { LaunchRule } from '../launch.ts';

/** The refusal of a start past a `refuse` template's limit, with the task in the way. */
export const templateBusy = (name: string, limit: number, task: { id: number; status: string }) =>
  new ApiError('conflict', `Template "${name}" runs at most ${limit} task${limit === 1 ? '' : 's'} at once: task ${task.id} is ${isActive(task.status) ? 'running' : 'queued'}`, { task_id: task.id });

/**
 * A template's limit on its unfinished tasks, decided in the queuing transaction so that two
 * starts at once see each other: `refuse` answers 409 with the task in the way; `cancel_previous`
 * stops the oldest ones, once the new task is queued, so the newest `limit` remain. `queue` needs
 * nothing here: the queue's claim (engine/queue/claim-task.ts) starts them in turn.
 */
export const templateConcurrencyRule: LaunchRule = {
  name: 'template concurrency',
  async admit(tx, launch) {
    const template = await tx.selectFrom('template').select(['name', 'concurrency_limit', 'concurrency_policy', 'allow_parallel_tasks'])
      .where('id', '=', launch.template.id).executeTakeFirstOrThrow();
    const { limit, policy } = templateConcurrency(template);
    if (limit === null || policy === 'queue') return;
    await serialiseTemplateStarts(tx, launch.template.id);
    const unfinished = await tx.selectFrom('task').select(['id', 'status']).where('template_id', '=', launch.template.id)
      .where('status', 'in', ['waiting', ...ACTIVE_STATUSES]).orderBy('id').execute();
    if (unfinished.length < limit) return;
    if (policy === 'refuse') throw templateBusy(template.name, limit, unfinished.find((t) => isActive(t.status)) ?? unfinished[0]!);
    launch.stops = unfinished.slice(0, unfinished.length - limit + 1).map((t) => t.id);
  },
  async queued(launch) {
    for (const id of launch.stops) {
      const task = await launch.deps.db.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirst();
      // the new task is queued whatever becomes of an old one (it may have ended meanwhile)
      if (task) await stopTask(launch.deps, task, false).catch((err) => console.warn(`[launch] stopping task ${id} for a newer one failed: ${(err as Error).message}`));
    }
  },
};

/**
 * Starts of one template take turns on PostgreSQL (several servers share it), so each sees the
 * ones before; SQLite's single writer already does.
 */
export async function serialiseTemplateStarts(tx: Tx, templateId: number): Promise<void> {
  if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(7302, ${templateId})`.execute(tx);
}
