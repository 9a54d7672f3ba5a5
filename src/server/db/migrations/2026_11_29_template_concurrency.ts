import type { Kysely } from 'kysely';

/**
 * Per-template concurrency (issue 48): at most `concurrency_limit` active tasks of a template
 * (null: as before, `allow_parallel_tasks` decides between one and any number), and what a
 * start past it does (`concurrency_policy`): `queue` (waits, first come first served),
 * `cancel_previous` (the earlier ones are stopped) or `refuse` (409). An index on the task's
 * template and status keeps the claim's count of a template's active tasks cheap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').addColumn('concurrency_limit', 'integer').execute();
  await db.schema.alterTable('template').addColumn('concurrency_policy', 'text', (c) => c.notNull().defaultTo('queue')).execute();
  await db.schema.createIndex('task_template_status').on('task').columns(['template_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_template_status').execute();
  await db.schema.alterTable('template').dropColumn('concurrency_policy').execute();
  await db.schema.alterTable('template').dropColumn('concurrency_limit').execute();
}
