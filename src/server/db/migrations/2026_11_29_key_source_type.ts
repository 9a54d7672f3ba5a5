import type { Kysely } from 'kysely';

/**
 * Keys read from the server's environment or a file (issue 51, Semaphore's `source_storage_type`
 * `env` / `file`): the variable name or path is in `source_storage_key`; nothing is stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_key').addColumn('source_storage_type', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_key').dropColumn('source_storage_type').execute();
}
