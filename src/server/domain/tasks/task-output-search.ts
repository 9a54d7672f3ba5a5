import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { stripAnsi } from './task-output-stream.ts';

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
 * patterns), in log order, at most `limit`, with the line numbers stored with each row. The
 * search blocks (engine/output/output-blocks.ts) say which runs of a thousand rows can hold a
 * match; only those rows, and the few after the last block, are read one by one.
 * Timed by bench/output-search.ts.
 * @example const { matches } = await searchTaskOutput(db, 12, 'fatal', 100);
 */
export async function searchTaskOutput(db: Db, taskId: number, query: string, limit: number): Promise<OutputSearch> {
  // a line never holds a newline, though a block's text does
  if (query === '' || query.includes('\n')) return { matches: [], more: false };
  const rows: MatchRow[] = [];
  for (const range of await candidateRanges(db, taskId, query, limit + 1)) {
    rows.push(...await matchingRows(db, taskId, query, range, limit + 1 - rows.length));
    if (rows.length > limit) break;
  }
  return {
    matches: rows.slice(0, limit).map((row) => ({ line: Number(row.line), time: row.time, output: stripAnsi(row.output) })),
    more: rows.length > limit,
  };
}

interface MatchRow { line: number | null; time: string; output: string }
/** Ids of `task_output` rows, both ends included; `last` null: to the end of the log. */
interface IdRange { first: number; last: number | null }

/** `haystack` contains the lowercased query (PostgreSQL `strpos`, SQLite `instr`; both lowercase with `lower()`). */
function contains(db: Db, haystack: RawBuilder<string>, query: string): RawBuilder<boolean> {
  return isPostgres(db) ? sql<boolean>`strpos(${haystack}, lower(${query})) > 0` : sql<boolean>`instr(${haystack}, lower(${query})) > 0`;
}

/** The blocks that hold the query, in log order (each holds at least one match), then the rows after the last block. */
async function candidateRanges(db: Db, taskId: number, query: string, wanted: number): Promise<IdRange[]> {
  const [blocks, end] = await Promise.all([
    db.selectFrom('task_output_block').select(['first_id', 'last_id']).where('task_id', '=', taskId)
      .where(contains(db, sql<string>`text`, query)).orderBy('last_id').limit(wanted).execute(),
    db.selectFrom('task_output_block').select((eb) => eb.fn.max('last_id').as('last')).where('task_id', '=', taskId).executeTakeFirst(),
  ]);
  const ranges: IdRange[] = blocks.map((b) => ({ first: Number(b.first_id), last: Number(b.last_id) }));
  ranges.push({ first: Number(end?.last ?? 0) + 1, last: null });
  return ranges;
}

function matchingRows(db: Db, taskId: number, query: string, range: IdRange, count: number): Promise<MatchRow[]> {
  let select = db.selectFrom('task_output').select(['line', 'time', 'output']).where('task_id', '=', taskId).where('id', '>=', range.first);
  if (range.last !== null) select = select.where('id', '<=', range.last);
  return select.where(contains(db, sql<string>`lower(output)`, query)).orderBy('id').limit(count).execute();
}
