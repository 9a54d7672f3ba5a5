import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/** Users, sessions, tokens, projects, members, events, options. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await withId(db.schema.createTable('user'), pg)
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('external', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable('session')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_active', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expired', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable('api_token')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('expired', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db.schema.createTable('login_attempt'), pg)
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempt_subject').on('login_attempt').columns(['subject', 'created']).execute();

  await db.schema.createTable('option')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('project'), pg)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('alert', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_chat', 'text')
    .addColumn('max_parallel_tasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema.createTable('project_user')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_user_pk', ['project_id', 'user_id'])
    .execute();

  await withId(db.schema.createTable('event'), pg)
    .addColumn('project_id', 'integer', (c) => c.references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('integration_id', 'integer')
    .addColumn('object_id', 'integer')
    .addColumn('object_type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('object_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_project_created').on('event').columns(['project_id', 'created']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['event', 'project_user', 'project', 'option', 'login_attempt', 'api_token', 'session', 'user']) {
    await db.schema.dropTable(table).execute();
  }
}
