import type { Db } from '../../db/database.ts';
import { readOutputPage } from './task.repository.ts';

/** Rows read per query while streaming; memory stays flat however long the log is. */
const PAGE_ROWS = 5000;

/** ANSI escape sequences (colours, cursor moves, OSC titles). */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** @example stripAnsi('\x1b[0;32mok\x1b[0m') === 'ok' */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * A task's log as a stream of text pages read from the database one page at a time:
 * `raw` gives one line per record without ANSI codes; `json` gives the `[{task_id, time, output}]` array.
 * @example return c.body(streamTaskOutput(db, id, 'raw'), 200, { 'content-type': 'text/plain; charset=utf-8' });
 */
export function streamTaskOutput(db: Db, taskId: number, format: 'raw' | 'json'): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let afterId = 0;
  let first = true;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const rows = await readOutputPage(db, taskId, afterId, PAGE_ROWS);
      let chunk = '';
      if (format === 'json' && first) chunk += '[';
      for (const row of rows) {
        if (format === 'raw') chunk += `${stripAnsi(row.output)}\n`;
        else chunk += `${first ? '' : ','}${JSON.stringify({ task_id: row.task_id, time: row.time, output: row.output })}`;
        first = false;
      }
      if (rows.length) afterId = rows[rows.length - 1]!.id;
      if (rows.length < PAGE_ROWS) {
        done = true;
        if (format === 'json') chunk += ']';
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
  });
}
