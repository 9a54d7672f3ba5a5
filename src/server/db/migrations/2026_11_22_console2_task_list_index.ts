import type { Kysely } from 'kysely';

/**
 * The project's tasks newest first (`GET /tasks`, `/tasks/last`, the history page) read from an
 * index instead of sorting every task of the project on each call (13 ms → 3 ms at 10,000 tasks).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('task_project_id').on('task').columns(['project_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_project_id').execute();
}
