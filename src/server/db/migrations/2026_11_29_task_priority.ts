import type { Kysely } from 'kysely';

/**
 * Priorities with aging (issue 48): a task's `priority` (high, normal, low) and its place in the
 * queue, `queue_rank` (domain/tasks/priority.ts: arrival time in seconds less one aging step per
 * level). Tasks already waiting rank by their id, ahead of every new one (a time in seconds is
 * far larger) and among themselves as the claim took them before; distinct ranks keep the claim's
 * look at one first task per template to one row each. An index on waiting tasks by template and rank keeps the claim's
 * look at each template's first task cheap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').addColumn('priority', 'text', (c) => c.notNull().defaultTo('normal')).execute();
  await db.schema.alterTable('task').addColumn('queue_rank', 'double precision', (c) => c.notNull().defaultTo(0)).execute();
  await db.updateTable('task').set((eb) => ({ queue_rank: eb.ref('id') })).where('status', '=', 'waiting').execute();
  await db.schema.createIndex('task_status_template_rank').on('task').columns(['status', 'template_id', 'queue_rank']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_status_template_rank').execute();
  await db.schema.alterTable('task').dropColumn('queue_rank').execute();
  await db.schema.alterTable('task').dropColumn('priority').execute();
}
