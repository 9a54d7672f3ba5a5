import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Grants of a template (issue 52 item 3): a project role (by slug) or a user may see it, and
 * with `can_run` start it. A template with grants is seen only by those granted (and owners,
 * admins); one without any is seen by every member whose role holds ViewTemplates.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('template_grant'), isPostgres(db))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('cascade'))
    .addColumn('can_run', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('template_grant_template').on('template_grant').column('template_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('template_grant').execute();
}
