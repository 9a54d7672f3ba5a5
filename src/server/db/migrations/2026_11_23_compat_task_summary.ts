import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * The task summary, read from the output while it streams: a task's stages (init, plan, run,
 * recap) with their times and output ids, and for Ansible the PLAY RECAP per host and each
 * failed or unreachable task. Rows go with their task (foreign keys cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const outputId = pg ? 'bigint' : 'integer';
  await withId(db.schema.createTable('task_stage'), pg)
    .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('start', 'text')
    .addColumn('end', 'text')
    .addColumn('start_output_id', outputId)
    .addColumn('end_output_id', outputId)
    .addColumn('result', 'text')
    .execute();
  await db.schema.createIndex('task_stage_task').on('task_stage').columns(['task_id', 'id']).execute();

  await withId(db.schema.createTable('task_ansible_host'), pg)
    .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unreachable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rescued', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ignored', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_ansible_host_task').on('task_ansible_host').columns(['task_id', 'id']).execute();

  await withId(db.schema.createTable('task_ansible_error'), pg)
    .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('task', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_ansible_error_task').on('task_ansible_error').columns(['task_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_ansible_error').execute();
  await db.schema.dropTable('task_ansible_host').execute();
  await db.schema.dropTable('task_stage').execute();
}
