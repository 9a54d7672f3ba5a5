import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * External secret storages (HashiCorp Vault, OpenBao) per project, access keys and variable-group
 * secrets that point at `path#field` in one of them instead of holding a value, and the per-template
 * task identity token settings (Semaphore 2.18–2.20's JWT section).
 * `secret_storage.secret` holds the storage's own credential (a token or an AppRole secret id), sealed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('secret_storage'), isPostgres(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('readonly', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('secret', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('secret_storage_project').on('secret_storage').column('project_id').execute();
  await db.schema.alterTable('access_key').addColumn('source_storage_id', 'integer').execute();
  await db.schema.alterTable('access_key').addColumn('source_storage_key', 'text').execute();
  await db.schema.alterTable('template').addColumn('jwt_enabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('template').addColumn('jwt_audience', 'text').execute();
  await db.schema.alterTable('template').addColumn('jwt_ttl', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').dropColumn('jwt_ttl').execute();
  await db.schema.alterTable('template').dropColumn('jwt_audience').execute();
  await db.schema.alterTable('template').dropColumn('jwt_enabled').execute();
  await db.schema.alterTable('access_key').dropColumn('source_storage_key').execute();
  await db.schema.alterTable('access_key').dropColumn('source_storage_id').execute();
  await db.schema.dropTable('secret_storage').execute();
}
