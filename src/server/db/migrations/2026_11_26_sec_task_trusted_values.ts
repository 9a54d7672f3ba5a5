import type { Kysely } from 'kysely';

/**
 * Whether a task's values (survey answers, `environment`, `secret`) came from someone who may
 * edit its template. The engine hands any other values to Ansible marked unsafe, so Jinja in
 * them is printed, never run. Rows from before this column read as untrusted: the safe side.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').addColumn('trusted_values', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').dropColumn('trusted_values').execute();
}
