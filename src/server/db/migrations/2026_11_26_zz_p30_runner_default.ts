import type { Kysely } from 'kysely';

/** A default runner per scope (Semaphore 2.18 `is_default`): it takes the scope's untagged tasks. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runner').addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runner').dropColumn('is_default').execute();
}
