import type { Kysely } from 'kysely';

/**
 * Why a start or a wait happened, where people look: a schedule's `last_error` (its latest
 * firing was refused, and why; '' after one that started a task) and a waiting task's
 * `waiting_for` (JSON: what it waits for, null once claimed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('schedule').addColumn('last_error', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('task').addColumn('waiting_for', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').dropColumn('waiting_for').execute();
  await db.schema.alterTable('schedule').dropColumn('last_error').execute();
}
