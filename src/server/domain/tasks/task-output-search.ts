import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { stripAnsi } from './task-output-stream.ts';
import { outputStats } from './task.repository.ts';

/** Longest search text accepted. */
export const SEARCH_QUERY_MAX = 200;
/** Matches answered at most per request. */
export const SEARCH_LIMIT_MAX = 1000;

export interface OutputMatch {
  /** 1-based line number, as the log view numbers its rows */
  line: number;
  time: string;
  /** the line without ANSI codes */
  output: string;
}

export interface OutputSearch {
  matches: OutputMatch[];
  /** true when more lines match than were answered */
  more: boolean;
}

/**
 * Finds the lines of a task's log containing `query` (case-insensitive, plain text, no
 * patterns), in log order, at most `limit`, with their line numbers. One pass over the task's
 * rows by primary-key range (first and last id from the `task_output_task` index and the kept
 * line count, then the table is read in id order without index lookups); the line numbers come
 * from counting the index between neighbouring matches, from whichever end is nearer. `final`:
 * the log no longer grows (a finished task), so its line count may be kept.
 * Timed by bench/output-search.ts.
 * @example const { matches } = await searchTaskOutput(db, 12, 'fatal', 100);
 */
export async function searchTaskOutput(db: Db, taskId: number, query: string, limit: number, final = false): Promise<OutputSearch> {
  const [first, stats] = await Promise.all([
    db.selectFrom('task_output').select('id').where('task_id', '=', taskId).orderBy('id').limit(1).executeTakeFirst(),
    outputStats(db, taskId, final),
  ]);
  if (!first || !stats.total || query === '') return { matches: [], more: false };
  const pattern = `%${query.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const pg = isPostgres(db);
  // PostgreSQL: plain substring search of the lowercased line (ILIKE's pattern engine is slower)
  const contains = pg ? sql<boolean>`strpos(lower(output), ${query.toLowerCase()}) > 0` : sql<boolean>`output like ${pattern} escape '\\'`;
  // `+task_id` keeps SQLite on the primary-key range instead of the (task_id, id) index.
  const taskFilter = pg ? sql<boolean>`task_id = ${taskId}` : sql<boolean>`+task_id = ${taskId}`;
  const rows = await db.selectFrom('task_output').select(['id', 'time', 'output'])
    .where('id', '>=', first.id).where('id', '<=', stats.last)
    .where(taskFilter).where(contains)
    .orderBy('id').limit(limit + 1).execute();
  const more = rows.length > limit;
  const found = rows.slice(0, limit).map((row) => ({ ...row, id: Number(row.id) }));
  if (!found.length) return { matches: [], more };
  const countRange = async (from: number, to: number) => Number((await db.selectFrom('task_output').where('task_id', '=', taskId)
    .where('id', '>=', from).where('id', '<=', to)
    .select((e) => e.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  // Line numbers: count the index between neighbouring matches, from the start or back from
  // the end, whichever side of the matches is shorter.
  const lines: number[] = new Array(found.length);
  const fromStart = found.at(-1)!.id - first.id <= stats.last - found[0]!.id;
  if (fromStart) {
    let line = 0;
    let from = first.id;
    for (let i = 0; i < found.length; i++) {
      line += await countRange(from, found[i]!.id);
      lines[i] = line;
      from = found[i]!.id + 1;
    }
  } else {
    let after = 0;
    let to = stats.last;
    for (let i = found.length - 1; i >= 0; i--) {
      after += await countRange(found[i]!.id + 1, to);
      lines[i] = stats.total - after;
      after += 1;
      to = found[i]!.id - 1;
    }
  }
  return { matches: found.map((row, i) => ({ line: lines[i]!, time: row.time, output: stripAnsi(row.output) })), more };
}
