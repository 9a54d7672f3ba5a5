import type { Kysely } from 'kysely';

/** A per-user "may create projects" flag, set by admins; the config switch still opens it to everyone. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user').addColumn('can_create_project', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('can_create_project').execute();
}
