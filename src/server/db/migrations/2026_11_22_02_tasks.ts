import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/** Tasks (which are also the queue) and their output lines. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await withId(db.schema.createTable('task'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('integration_id', 'integer')
    .addColumn('schedule_id', 'integer')
    .addColumn('build_task_id', 'integer')
    .addColumn('inventory_id', 'integer')
    .addColumn('playbook', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('environment', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('arguments', 'text')
    .addColumn('git_branch', 'text')
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('commit_hash', 'text')
    .addColumn('commit_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'text')
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('start', 'text')
    .addColumn('end', 'text')
    .addColumn('locked_by', 'text')
    .execute();
  await db.schema.createIndex('task_project_created').on('task').columns(['project_id', 'created']).execute();
  await db.schema.createIndex('task_template').on('task').columns(['template_id', 'id']).execute();
  await db.schema.createIndex('task_status').on('task').column('status').execute();

  const output = pg
    ? db.schema.createTable('task_output').addColumn('id', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable('task_output').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await output
    .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_output_task').on('task_output').columns(['task_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_output').execute();
  await db.schema.dropTable('task').execute();
}
