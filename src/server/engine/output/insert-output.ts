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

/**
 * Inserts lines that share a timestamp, in order, in as few statements as the size cap allows;
 * `progress.written` counts the lines already stored.
 * @example await insertOutputGroup(db, 12, now(), ['PLAY [all]', 'ok: [localhost]']);
 */
export async function insertOutputGroup(db: Db, taskId: number, time: string, outputs: readonly string[], progress?: { written: number }): Promise<void> {
  const statement = isPostgres(db) ? POSTGRES_INSERT : SQLITE_INSERT;
  let start = 0;
  while (start < outputs.length) {
    let end = start;
    let chars = 0;
    while (end < outputs.length && (chars < CHARS_PER_INSERT || end === start)) chars += outputs[end++]!.length;
    const part = start === 0 && end === outputs.length ? outputs : outputs.slice(start, end);
    await db.executeQuery(CompiledQuery.raw(statement, isPostgres(db) ? [taskId, time, JSON.stringify(part)] : [taskId, time, taskId, JSON.stringify(part)]));
    start = end;
    // a caller retrying after a failure resumes here instead of storing lines twice
    if (progress) progress.written = end;
  }
  await noteStoredRows(db, taskId, outputs.length);
}

/**
 * Inserts a task's output lines, grouping neighbours with the same timestamp. The output
 * writer and the benchmark's bare-insert baseline share `insertOutputGroup`, so the comparison
 * measures the pipeline, not the SQL.
 * @example await insertOutputLines(db, 12, [{ time: now(), output: 'ok' }]);
 */
export async function insertOutputLines(db: Db, taskId: number, lines: readonly OutputLine[]): Promise<void> {
  let i = 0;
  while (i < lines.length) {
    const time = lines[i]!.time;
    const outputs: string[] = [];
    while (i < lines.length && lines[i]!.time === time) outputs.push(lines[i++]!.output);
    await insertOutputGroup(db, taskId, time, outputs);
  }
}
