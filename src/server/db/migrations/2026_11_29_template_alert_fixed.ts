import type { Kysely } from 'kysely';

/**
 * "Fixed" alerts (issue 51, Semaphore #3380): with `alert_fixed` set beside a muted success,
 * the first success after a failure still alerts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').addColumn('alert_fixed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').dropColumn('alert_fixed').execute();
}
