import type { Kysely } from 'kysely';
import { isPostgres } from './dialect-types.ts';
import { buildBlocks } from '../../engine/output/output-blocks.ts';

/**
 * Search blocks (engine/output/output-blocks.ts): a task's log in lowercased runs of a thousand
 * rows, so a search over a million-line log reads a thousand texts. Existing logs get theirs here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = isPostgres(db) ? 'bigint' : 'integer';
  await db.schema.createTable('task_output_block')
    .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
    .addColumn('first_id', id, (c) => c.notNull())
    .addColumn('last_id', id, (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_output_block_task').unique().on('task_output_block').columns(['task_id', 'last_id']).execute();
  const tasks = await db.selectFrom('task').select('id').where((eb) => eb.exists(eb.selectFrom('task_output').select('task_output.id').whereRef('task_output.task_id', '=', 'task.id'))).execute();
  for (const task of tasks) await buildBlocks(db as never, task.id);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_output_block').execute();
}
