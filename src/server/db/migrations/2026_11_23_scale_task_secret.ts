import type { Kysely } from 'kysely';

/**
 * Survey-secret values of a queued task, sealed with the server's key, until an engine claims
 * the task: with several servers on one database, the server that queued a task is not always
 * the one that runs it. The claiming engine deletes the row as it reads it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('task_secret')
    .addColumn('task_id', 'integer', (c) => c.primaryKey().references('task.id').onDelete('cascade'))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_secret').execute();
}
