import type { Db } from '../db/database.ts';
import { isPostgres } from '../db/dialect.ts';
import { now } from '../lib/time.ts';

/** The `audit_export` row that holds the last sequence number given. */
export const SEQUENCE_ROW = '_sequence';
const BATCH = 1000;

/**
 * Gives the oldest unsequenced audit rows the next sequence numbers (gap-free, in commit
 * order as far as one reader can see it). One server at a time: the counter row is locked
 * (PostgreSQL) or the write transaction is exclusive (SQLite). Returns how many were numbered.
 * @example while (await sequenceAuditRows(db) > 0);
 */
export async function sequenceAuditRows(db: Db): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await tx.insertInto('audit_export').values({ sink: SEQUENCE_ROW, delivered_seq: 0, last_error: '', updated: now() })
      .onConflict((oc) => oc.column('sink').doNothing()).execute();
    const counter = await tx.selectFrom('audit_export').select('delivered_seq').where('sink', '=', SEQUENCE_ROW)
      .$call((q) => (isPostgres(tx) ? q.forUpdate() : q)).executeTakeFirstOrThrow();
    const rows = await tx.selectFrom('audit').select('id').where('seq', 'is', null).orderBy('id').limit(BATCH).execute();
    if (!rows.length) return 0;
    let seq = Number(counter.delivered_seq);
    for (const row of rows) await tx.updateTable('audit').set({ seq: ++seq }).where('id', '=', row.id).execute();
    await tx.updateTable('audit_export').set({ delivered_seq: seq, updated: now() }).where('sink', '=', SEQUENCE_ROW).execute();
    return rows.length;
  });
}

/** The last sequence number given (0 before the first). */
export async function lastSequence(db: Db): Promise<number> {
  const row = await db.selectFrom('audit_export').select('delivered_seq').where('sink', '=', SEQUENCE_ROW).executeTakeFirst();
  return Number(row?.delivered_seq ?? 0);
}
