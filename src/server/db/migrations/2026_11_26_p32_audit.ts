import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * The audit trail (issue 32): one row per state change or sign-in event, written in the change's
 * own transaction. Rows keep names and ids as they were (no foreign keys), so they outlive what
 * they describe. `seq` is the gap-free export sequence number, given when the exporter first
 * picks the row up; `audit_export` keeps, per export sink, the last sequence number delivered
 * (the `_sequence` row holds the last number given).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await withId(db.schema.createTable('audit'), postgres)
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('actor_token', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('client_ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('project_id', 'integer')
    .addColumn('project_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('object_type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('object_id', 'integer')
    .addColumn('object_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fields', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('request', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seq', 'integer')
    .execute();
  await db.schema.createIndex('audit_created').on('audit').columns(['created', 'id']).execute();
  await db.schema.createIndex('audit_project').on('audit').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('audit_actor').on('audit').columns(['actor_user_id', 'id']).execute();
  await db.schema.createIndex('audit_seq').on('audit').column('seq').execute();
  await db.schema.createTable('audit_export')
    .addColumn('sink', 'text', (c) => c.primaryKey())
    .addColumn('delivered_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_export').execute();
  await db.schema.dropTable('audit').execute();
}
