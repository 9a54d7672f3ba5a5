import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Read-only wall-board tokens (`/board?token=`): each opens one board over a fixed list of
 * projects and nothing else. Only a SHA-256 hash of the secret is stored, like API tokens;
 * `prefix` is what lists show. `project_ids` is a JSON array, `options` a JSON object (`by`,
 * `view_id`). The creator's deletion removes its tokens.
 * The index on task(template_id, status, id) finds each template's last successful run (the
 * board's progress estimate and the start of its failure streak) without reading its history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('board_token'), isPostgres(db))
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('project_ids', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('board_token_user').on('board_token').column('user_id').execute();
  await db.schema.createIndex('task_template_status_id').on('task').columns(['template_id', 'status', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_template_status_id').execute();
  await db.schema.dropTable('board_token').execute();
}
