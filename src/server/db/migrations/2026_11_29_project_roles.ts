import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Custom roles of a project (issue 52): a slug members' `project_user.role` names, a title and
 * the permission bits (access/permissions.ts). Semaphore's four roles are not rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('project_role'), isPostgres(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('permissions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_role_slug', ['project_id', 'slug'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_role').execute();
}
