import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect-types.ts';

const COLUMNS = ['created', 'action', 'actor_user_id', 'actor_name', 'actor_token', 'client_ip', 'user_agent', 'project_id', 'project_name',
  'object_type', 'object_id', 'object_name', 'fields', 'description', 'request'];

/**
 * The audit trail's inbox: a change writes its audit row here, in its own transaction, and the
 * sequencing pass moves rows in batches into `audit`, giving each its `seq`. The inbox has no
 * index but its key, so a change dirties one page for its record instead of five (bench/audit.ts).
 * Ids are the audit row's for good: PostgreSQL takes them from `audit`'s own sequence, SQLite
 * from the highest id of both tables. Rows still without a sequence number move here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema.createTable('audit_inbox')
    .addColumn('id', 'integer', (c) => (postgres ? c.primaryKey().defaultTo(sql`nextval(pg_get_serial_sequence('audit', 'id'))`) : c.primaryKey()))
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
    .execute();
  await db.insertInto('audit_inbox').columns(['id', ...COLUMNS])
    .expression(db.selectFrom('audit').select(['id', ...COLUMNS]).where('seq', 'is', null)).execute();
  await db.deleteFrom('audit').where('seq', 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.insertInto('audit').columns(['id', ...COLUMNS]).expression(db.selectFrom('audit_inbox').select(['id', ...COLUMNS])).execute();
  await db.schema.dropTable('audit_inbox').execute();
}
