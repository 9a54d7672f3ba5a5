import { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { noteStoredRows } from './output-blocks.ts';

export interface OutputLine {
  time: string;
  output: string;
}

/** Lines read together share one timestamp, so they travel as a group: one time, many lines. */
export interface OutputGroup {
  time: string;
  outputs: string[];
}

/**
 * Characters of line text per statement at most. Keeps each JSON parameter well under V8's
 * large-object threshold (128 KiB): larger strings go straight to old space and pile up until a
 * full garbage collection.
 */
const CHARS_PER_INSERT = 40_000;

/**
 * The line number of the task's last stored row, found through the (task_id, id) index. A task
 * has one writer at a time, so the numbers continue without gaps.
 */
function lastLineOf(taskParam: string): string {
  return `select "line" from "task_output" where "task_id" = ${taskParam} order by "id" desc limit 1`;
}

/**
 * One small, constant statement per group of lines: the lines travel as a single JSON array
 * parameter and the database unpacks them in order (SQLite `json_each`, PostgreSQL
 * `json_array_elements_text`). A multi-row VALUES list needs a fresh statement with thousands of
 * parameters per batch; building and preparing those cost more than SQLite's own work, and
 * better-sqlite3 frees prepared statements only at garbage collection (hundreds of MB of RSS).
 */
const SQLITE_INSERT = `insert into "task_output" ("task_id", "time", "output", "line")
  select ?, ?, "value", "key" + 1 + coalesce((${lastLineOf('?')}), 0) from json_each(?) order by "key"`;
const POSTGRES_INSERT = `insert into "task_output" ("task_id", "time", "output", "line")
  select $1, $2, x.line, x.n + coalesce((${lastLineOf('$1')}), 0)
  from json_array_elements_text($3::json) with ordinality as x(line, n) order by x.n`;

/** Lines of several timestamps in one statement: `[[time, line], …]` unpacked in order. */
const SQLITE_INSERT_TIMED = `insert into "task_output" ("task_id", "time", "output", "line")
  select ?, "value" ->> 0, "value" ->> 1, "key" + 1 + coalesce((${lastLineOf('?')}), 0) from json_each(?) order by "key"`;
const POSTGRES_INSERT_TIMED = `insert into "task_output" ("task_id", "time", "output", "line")
  select $1, x.r ->> 0, x.r ->> 1, x.n + coalesce((${lastLineOf('$1')}), 0)
  from json_array_elements($2::json) with ordinality as x(r, n) order by x.n`;

/**
 * Inserts lines that share a timestamp, in order, in as few statements as the size cap allows;
 * `progress.written` counts the lines already stored.
 * @example await insertOutputGroup(db, 12, now(), ['PLAY [all]', 'ok: [localhost]']);
 */
export async function insertOutputGroup(db: Db, taskId: number, time: string, outputs: readonly string[], progress?: { written: number }): Promise<void> {
  const statement = isPostgres(db) ? POSTGRES_INSERT : SQLITE_INSERT;
  await insertInParts(outputs, (s) => s.length, async (part, end) => {
    await db.executeQuery(CompiledQuery.raw(statement, isPostgres(db) ? [taskId, time, JSON.stringify(part)] : [taskId, time, taskId, JSON.stringify(part)]));
    // a caller retrying after a failure resumes here instead of storing lines twice
    if (progress) progress.written = end;
  });
  await noteStoredRows(db, taskId, outputs.length);
}

/**
 * Inserts a task's output lines in order. Lines of one timestamp go through `insertOutputGroup`
 * (the output writer and the benchmark's bare-insert baseline share it, so the comparison
 * measures the pipeline, not the SQL); lines of several timestamps, as a remote runner reports
 * them, travel with their times in as few statements as the size cap allows.
 * @example await insertOutputLines(db, 12, [{ time: now(), output: 'ok' }]);
 */
export async function insertOutputLines(db: Db, taskId: number, lines: readonly OutputLine[]): Promise<void> {
  if (!lines.length) return;
  if (lines.every((l) => l.time === lines[0]!.time)) return insertOutputGroup(db, taskId, lines[0]!.time, lines.map((l) => l.output));
  const statement = isPostgres(db) ? POSTGRES_INSERT_TIMED : SQLITE_INSERT_TIMED;
  await insertInParts(lines, (l) => l.output.length, async (part) => {
    const rows = JSON.stringify(part.map((l) => [l.time, l.output]));
    await db.executeQuery(CompiledQuery.raw(statement, isPostgres(db) ? [taskId, rows] : [taskId, taskId, rows]));
  });
  await noteStoredRows(db, taskId, lines.length);
}

/** Cuts `items` into runs of about CHARS_PER_INSERT characters (at least one item each) and inserts them in order. */
async function insertInParts<T>(items: readonly T[], size: (item: T) => number, insert: (part: readonly T[], end: number) => Promise<void>): Promise<void> {
  let start = 0;
  while (start < items.length) {
    let end = start;
    let chars = 0;
    while (end < items.length && (chars < CHARS_PER_INSERT || end === start)) chars += size(items[end++]!);
    await insert(start === 0 && end === items.length ? items : items.slice(start, end), end);
    start = end;
  }
}
