import type { Config } from '../config/config.ts';
import type { Db } from '../db/database.ts';
import { writeAudit } from '../domain/audit/audit.writer.ts';

const DAY_MS = 86_400_000;
const BATCH = 5000;

/** The export sinks the settings switch on, by the names their cursors are kept under. */
export function enabledSinkNames(config: Config): string[] {
  const { file, syslog, webhook } = config.audit;
  return [file.enabled && 'file', syslog.enabled && 'syslog', webhook.enabled && 'webhook'].filter((n): n is string => !!n);
}

/**
 * Deletes audit rows older than `audit.retention_days` (0 keeps them), in batches, except rows
 * an enabled export sink has not delivered yet. The purge records itself: one `purge` row,
 * written in the transaction of the last batch, says how many rows went.
 * @example const removed = await purgeExpiredAudit(db, config);
 */
export async function purgeExpiredAudit(db: Db, config: Config, now = new Date()): Promise<number> {
  const days = config.audit.retention_days;
  if (!days) return 0;
  const before = new Date(now.getTime() - days * DAY_MS).toISOString();
  const sinks = enabledSinkNames(config);
  const delivered = sinks.length ? await deliveredByAll(db, sinks) : null;
  let removed = 0;
  for (;;) {
    let query = db.selectFrom('audit').select('id').where('created', '<', before).orderBy('id').limit(BATCH);
    if (delivered !== null) query = query.where('seq', 'is not', null).where('seq', '<=', delivered);
    const ids = (await query.execute()).map((r) => r.id);
    if (!ids.length) break;
    const last = ids.length < BATCH;
    await db.transaction().execute(async (tx) => {
      await tx.deleteFrom('audit').where('id', 'in', ids).execute();
      removed += ids.length;
      if (last) await recordPurge(tx, removed, before);
    });
    if (last) return removed;
  }
  if (removed) await recordPurge(db, removed, before);
  return removed;
}

async function recordPurge(db: Db, removed: number, before: string): Promise<void> {
  await writeAudit(db, {
    action: 'purge', objectType: 'audit', projectId: null, description: `${removed} audit rows older than ${before} deleted`,
  });
}

/** The highest sequence number every one of the sinks has delivered. */
async function deliveredByAll(db: Db, sinks: string[]): Promise<number> {
  const rows = await db.selectFrom('audit_export').select(['sink', 'delivered_seq']).where('sink', 'in', sinks).execute();
  if (rows.length < sinks.length) return 0;
  return Math.min(...rows.map((r) => Number(r.delivered_seq)));
}
