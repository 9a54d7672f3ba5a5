import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Host configs (Semaphore 2.20): per project, an SSH host name or a git URL prefix mapped to an
 * SSH key from the key store (deleting the key deletes its mappings). Also `repository.pull_submodules`; existing repositories keep
 * fetching their submodules, as every clone did before the column existed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('host_config'), isPostgres(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('ssh_key_id', 'integer', (c) => c.notNull().references('access_key.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('host_config_project').on('host_config').column('project_id').execute();
  await db.schema.alterTable('repository').addColumn('pull_submodules', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('repository').dropColumn('pull_submodules').execute();
  await db.schema.dropTable('host_config').execute();
}
