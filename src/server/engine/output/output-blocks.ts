import { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';

/** Log rows per search block. */
export const BLOCK_LINES = 1000;

/**
 * The next full block of a task's rows not yet in a block, lowercased and joined by newlines,
 * in one statement; nothing when fewer than BLOCK_LINES rows follow the last block. The
 * database lowercases, so a search folds its text with the same function as the block.
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

/** Rows each task has written through this process since its blocks were last brought up to date. */
const unblockedByDb = new WeakMap<object, Map<number, number>>();

/**
 * Search blocks keep a task's log searchable without lowercasing every row at query time: a
 * block holds BLOCK_LINES consecutive rows in one lowercased text, so a search scans a
 * thousandth of the rows; rows after the last full block are searched one by one. Called after
 * rows are stored; it looks at the database only once BLOCK_LINES rows have arrived since its
 * last look (or on a task's first rows in this process).
 * @example await noteStoredRows(db, 12, 250);
 */
export async function noteStoredRows(db: Db, taskId: number, rows: number): Promise<void> {
  let counts = unblockedByDb.get(db);
  if (!counts) unblockedByDb.set(db, (counts = new Map()));
  const seen = counts.get(taskId);
  const total = (seen ?? 0) + rows;
  if (seen !== undefined && total < BLOCK_LINES) {
    counts.set(taskId, total);
    return;
  }
  // a process writes few tasks at once; forgetting them all only costs each one extra look
  if (counts.size > 10_000) counts.clear();
  counts.set(taskId, 0);
  await buildBlocks(db, taskId);
}

/**
 * Writes every full block the task's stored rows allow.
 * @example await buildBlocks(db, 12);
 */
export async function buildBlocks(db: Db, taskId: number): Promise<void> {
  const statement = isPostgres(db)
    ? CompiledQuery.raw(POSTGRES_BLOCK, [taskId])
    : CompiledQuery.raw(SQLITE_BLOCK, [taskId, taskId, taskId]);
  for (;;) {
    const result = await db.executeQuery(statement);
    if (!Number(result.numAffectedRows ?? 0)) return;
  }
}
