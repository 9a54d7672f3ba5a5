import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Server-wide role templates (issue 52 item 2): an admin defines a role once, every project's
 * members may hold it by its slug without a copy. Slugs are unique across the server and never
 * those of a project's own role.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('server_role'), isPostgres(db))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('permissions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_role').execute();
}
