import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Grants per view (issue 52 items 3 and 4): a grant on a view names every template in it.
 * `directory` marks grants the LDAP/OIDC group mapping wrote, which each sign-in rewrites; the
 * API's lists hold only grants made by hand.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('view_grant'), isPostgres(db))
    .addColumn('view_id', 'integer', (c) => c.notNull().references('view.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('cascade'))
    .addColumn('can_run', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('directory', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('view_grant_view').on('view_grant').column('view_id').execute();
  await db.schema.alterTable('template_grant').addColumn('directory', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template_grant').dropColumn('directory').execute();
  await db.schema.dropTable('view_grant').execute();
}
