import type { Kysely } from 'kysely';

/** Template fields of the 2.16 API that the first schema lacks. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').addColumn('suppress_error_alerts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('template').addColumn('executor_image', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').dropColumn('executor_image').execute();
  await db.schema.alterTable('template').dropColumn('suppress_error_alerts').execute();
}
