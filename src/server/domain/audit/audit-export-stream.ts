import type { Db } from '../../db/database.ts';
import { eachAuditRow, type AuditFilter } from './audit.queries.ts';
import { collectGarbage } from '../../lib/collect-garbage.ts';

/** CSV and JSON-lines columns of an export, in order. */
export const EXPORT_COLUMNS = [
  'id', 'seq', 'created', 'action', 'actor_user_id', 'actor_name', 'actor_token', 'client_ip', 'user_agent', 'project_id', 'project_name',
  'object_type', 'object_id', 'object_name', 'fields', 'description', 'request',
] as const;

/** Rows per chunk the stream hands on (a chunk is built, sent, and forgotten). */
const CHUNK_ROWS = 200;
/** Rows between two full garbage collections (about 4 MB of CSV), which keep memory flat. */
const ROWS_PER_COLLECTION = 20_000;

/**
 * A CSV cell: quoted when needed; a text starting with = + - @ (or tab/CR) gets a leading
 * apostrophe so a spreadsheet shows it instead of running it as a formula.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The filtered rows as CSV (with a header) or JSON lines, produced while the client reads:
 * rows come from the database in keyset batches, so memory stays flat for any number of rows.
 * @example return c.body(auditExportStream(db, filter, 'csv'), 200, { 'content-type': 'text/csv' });
 */
export function auditExportStream(db: Db, filter: AuditFilter, format: 'csv' | 'jsonl'): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const rows = eachAuditRow(db, filter, CHUNK_ROWS);
  let header = format === 'csv';
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = header ? `${EXPORT_COLUMNS.join(',')}\n` : '';
      header = false;
      for (let i = 0; i < CHUNK_ROWS; i++) {
        const next = await rows.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        const row = next.value as unknown as Record<string, unknown>;
        chunk += format === 'csv'
          ? `${EXPORT_COLUMNS.map((column) => csvCell(row[column])).join(',')}\n`
          : `${JSON.stringify(Object.fromEntries(EXPORT_COLUMNS.map((column) => [column, row[column]])))}\n`;
      }
      controller.enqueue(encoder.encode(chunk));
      sent += CHUNK_ROWS;
      if (sent % ROWS_PER_COLLECTION === 0) collectGarbage();
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}
