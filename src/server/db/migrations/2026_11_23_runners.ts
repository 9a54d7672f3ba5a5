import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Remote runners (global when project_id is null): their auth token and one-time registration
 * token are kept only as SHA-256 hashes; `public_key` encrypts the secrets of the jobs they get.
 * A task remembers the runner it was handed to (`task.runner_id`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('runner'), isPostgres(db))
    .addColumn('project_id', 'integer', (c) => c.references('project.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('webhook', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('max_parallel_tasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('token_hash', 'text')
    .addColumn('registration_token_hash', 'text')
    .addColumn('public_key', 'text')
    .addColumn('touched', 'text')
    .addColumn('cleaning_requested', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runner_token_hash').on('runner').column('token_hash').execute();
  await db.schema.alterTable('task').addColumn('runner_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').dropColumn('runner_id').execute();
  await db.schema.dropTable('runner').execute();
}
