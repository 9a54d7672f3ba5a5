import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Named locks of a project (issue 48): `prod`, `db-migrations`, each with a capacity (how many
 * tasks may hold it at once). A template lists the locks its tasks need; an active task holds
 * its template's locks, and the queue's claim starts a task only when every one has room.
 * Deleting the template or the lock removes the entry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('project_lock'), isPostgres(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_lock_name', ['project_id', 'name'])
    .execute();
  await db.schema.createTable('template_lock')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('lock_id', 'integer', (c) => c.notNull().references('project_lock.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('template_lock_pk', ['template_id', 'lock_id'])
    .execute();
  await db.schema.createIndex('template_lock_lock').on('template_lock').column('lock_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('template_lock').execute();
  await db.schema.dropTable('project_lock').execute();
}
