import type { Db } from '../../db/database.ts';

export interface OutputLine {
  time: string;
  output: string;
}

/** Rows per INSERT statement; keeps well under SQLite's and PostgreSQL's bound-parameter limits. */
export const ROWS_PER_INSERT = 2000;

/**
 * Inserts a task's output lines with multi-row INSERTs. The output writer and the benchmark's
 * bare-insert baseline share it, so the comparison measures the pipeline, not the SQL.
 * @example await insertOutputLines(db, 12, [{ time: now(), output: 'ok' }]);
 */
export async function insertOutputLines(db: Db, taskId: number, lines: readonly OutputLine[]): Promise<void> {
  for (let i = 0; i < lines.length; i += ROWS_PER_INSERT) {
    const slice = lines.slice(i, i + ROWS_PER_INSERT);
    await db.insertInto('task_output').values(slice.map((l) => ({ task_id: taskId, time: l.time, output: l.output }))).execute();
  }
}
