import type { Kysely } from 'kysely';

/**
 * An activity-log entry names the audit row of the request that made it, so `/api/events`
 * can carry the audit trail's action and changed fields beside Semaphore's own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').addColumn('audit_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').dropColumn('audit_id').execute();
}
