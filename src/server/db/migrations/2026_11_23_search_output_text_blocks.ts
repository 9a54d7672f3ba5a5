import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres } from './dialect-types.ts';

/** Log rows per search block, as the engine wrote blocks when this migration was released. */
const BLOCK_LINES = 1000;

/**
 * The next full block of a task's rows not yet in a block: a frozen copy of the engine's
 * statement (engine/output/output-blocks.ts) on the day of this migration, so that a later
 * change there cannot change what this upgrade writes.
 */
const SQLITE_BLOCK = `insert into "task_output_block" ("task_id", "first_id", "last_id", "text")
  select ?, min("id"), max("id"), group_concat(lower("output"), char(10) order by "id")
  from (select "id", "output" from "task_output" where "task_id" = ?
    and "id" > coalesce((select max("last_id") from "task_output_block" where "task_id" = ?), 0)
    order by "id" limit ${BLOCK_LINES})
  having count(*) = ${BLOCK_LINES}
  on conflict do nothing`;
const POSTGRES_BLOCK = `insert into "task_output_block" ("task_id", "first_id", "last_id", "text")
  select $1, min("id"), max("id"), string_agg(lower("output"), E'\\n' order by "id")
  from (select "id", "output" from "task_output" where "task_id" = $1
    and "id" > coalesce((select max("last_id") from "task_output_block" where "task_id" = $1), 0)
    order by "id" limit ${BLOCK_LINES}) as "rows"
  having count(*) = ${BLOCK_LINES}
  on conflict do nothing`;

/**
 * Search blocks: a task's log in lowercased runs of a thousand rows, so a search over a
 * million-line log reads a thousand texts. Existing logs get theirs here.
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
  for (const task of tasks) await writeBlocks(db, task.id);
}

async function writeBlocks(db: Kysely<any>, taskId: number): Promise<void> {
  const statement = isPostgres(db)
    ? CompiledQuery.raw(POSTGRES_BLOCK, [taskId])
    : CompiledQuery.raw(SQLITE_BLOCK, [taskId, taskId, taskId]);
  while (Number((await db.executeQuery(statement)).numAffectedRows ?? 0)) { /* one block per round */ }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_output_block').execute();
}
