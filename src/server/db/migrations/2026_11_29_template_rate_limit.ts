import type { Kysely } from 'kysely';

/**
 * Rate limits for triggers (issue 48): at most `rate_limit_starts` tasks of a template start in
 * any `rate_limit_window` (a duration as written, `10m`); past it a schedule's firing is skipped
 * and a webhook answered 429. Both null: no limit. An index on the task's template and creation
 * time keeps the count of recent starts cheap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').addColumn('rate_limit_starts', 'integer').execute();
  await db.schema.alterTable('template').addColumn('rate_limit_window', 'text').execute();
  await db.schema.createIndex('task_template_created').on('task').columns(['template_id', 'created']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_template_created').execute();
  await db.schema.alterTable('template').dropColumn('rate_limit_window').execute();
  await db.schema.alterTable('template').dropColumn('rate_limit_starts').execute();
}
