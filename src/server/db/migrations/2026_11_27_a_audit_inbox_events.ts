import type { Kysely } from 'kysely';

/** Where each column of a carried activity-log entry goes in `event`. */
const EVENT_COLUMNS = [
  ['event_id', 'integer', 'id'], ['event_project_id', 'integer', 'project_id'], ['event_user_id', 'integer', 'user_id'],
  ['event_integration_id', 'integer', 'integration_id'], ['event_object_id', 'integer', 'object_id'], ['event_object_type', 'text', 'object_type'],
  ['event_object_name', 'text', 'object_name'], ['event_description', 'text', 'description'],
] as const;

/**
 * An audit inbox row carries the activity-log entry of the change it records: the change writes
 * one row instead of two, and the entry moves into `event` with its record (bench/audit.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [column, type] of EVENT_COLUMNS) await db.schema.alterTable('audit_inbox').addColumn(column, type).execute();
}

/** Entries still waiting go into `event` first, naming their audit rows. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.insertInto('event').columns([...EVENT_COLUMNS.map(([, , target]) => target), 'created', 'audit_id'])
    .expression(db.selectFrom('audit_inbox').select([...EVENT_COLUMNS.map(([column]) => column), 'created', 'id']).where('event_id', 'is not', null))
    .execute();
  for (const [column] of EVENT_COLUMNS) await db.schema.alterTable('audit_inbox').dropColumn(column).execute();
}
