import type { Kysely } from 'kysely';

/**
 * A schedule's own IANA time zone (`Europe/Berlin`); null: the server's schedule time zone.
 * Cron fields and zone-less `run_at` times are read in it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedule').addColumn('timezone', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedule').dropColumn('timezone').execute();
}
