import { sql } from 'kysely';
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
 * patterns), in log order, at most `limit`, with the line numbers stored with each row: one
 * pass over the task's rows in id order, stopping after `limit + 1` matches.
 * Timed by bench/output-search.ts.
 * @example const { matches } = await searchTaskOutput(db, 12, 'fatal', 100);
 */
export async function searchTaskOutput(db: Db, taskId: number, query: string, limit: number): Promise<OutputSearch> {
  if (query === '') return { matches: [], more: false };
  const rows = isPostgres(db) ? await postgresMatches(db, taskId, query, limit + 1) : await sqliteMatches(db, taskId, query, limit + 1);
  return {
    matches: rows.slice(0, limit).map((row) => ({ line: Number(row.line), time: row.time, output: stripAnsi(row.output) })),
    more: rows.length > limit,
  };
}

/**
 * PostgreSQL reads the task's rows through the (task_id, id) index, in order, and stops at the
 * last match wanted. Lowercasing every line is most of the cost: an ASCII query compares under
 * the "C" collation, whose lower() folds ASCII letters only and is about twice as fast (a
 * non-ASCII letter never lowercases to an ASCII one, Kelvin sign aside); any other query folds
 * under the database's own rules.
 */
function postgresMatches(db: Db, taskId: number, query: string, count: number) {
  const ascii = /^[\x20-\x7e]*$/.test(query);
  const folded = ascii ? sql<string>`lower(output collate "C")` : sql<string>`lower(output)`;
  return db.selectFrom('task_output').select(['line', 'time', 'output'])
    .where('task_id', '=', taskId).where(sql<boolean>`strpos(${folded}, ${query.toLowerCase()}) > 0`)
    .orderBy('id').limit(count).execute();
}

/**
 * SQLite reads the task's id range straight from the table (`+task_id` keeps it off the
 * (task_id, id) index, whose lookups per row cost more than the rows of other tasks skipped);
 * its LIKE folds ASCII letters.
 */
async function sqliteMatches(db: Db, taskId: number, query: string, count: number) {
  const [first, last] = await Promise.all([edgeId(db, taskId, 'asc'), edgeId(db, taskId, 'desc')]);
  if (first === undefined || last === undefined) return [];
  return db.selectFrom('task_output').select(['line', 'time', 'output'])
    .where('id', '>=', first).where('id', '<=', last)
    .where(sql<boolean>`+task_id = ${taskId}`).where(sql<boolean>`output like ${likePattern(query)} escape '\\'`)
    .orderBy('id').limit(count).execute();
}

/** The first or last `task_output.id` of a task, through the (task_id, id) index. */
async function edgeId(db: Db, taskId: number, order: 'asc' | 'desc'): Promise<number | undefined> {
  const row = await db.selectFrom('task_output').select('id').where('task_id', '=', taskId).orderBy('id', order).limit(1).executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/** A LIKE pattern matching `text` anywhere, its `%`, `_` and `\` taken literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
