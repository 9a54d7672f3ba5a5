import type { Kysely } from 'kysely';

/**
 * Cursor pages of a project's tasks filtered by status, starter or template, read along an
 * index in id order: the last page of a million tasks costs what the first does.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('task_project_status_id').on('task').columns(['project_id', 'status', 'id']).execute();
  await db.schema.createIndex('task_project_user_id').on('task').columns(['project_id', 'user_id', 'id']).execute();
  await db.schema.createIndex('task_project_template_id').on('task').columns(['project_id', 'template_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_project_template_id').execute();
  await db.schema.dropIndex('task_project_user_id').execute();
  await db.schema.dropIndex('task_project_status_id').execute();
}
