import type { Kysely } from 'kysely';

/** A disabled template cannot be run: not from the API, a schedule, a webhook or autorun. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').dropColumn('disabled').execute();
}
