import type { Deps } from '../deps.ts';
import type { Db } from '../db/database.ts';
import { now } from '../lib/time.ts';
import { configureAudit } from '../domain/audit/audit.writer.ts';
import { exportedEvent, type AuditSink } from './audit-record.ts';
import { moveAuditInbox } from '../domain/audit/audit-inbox.ts';
import { fileSink } from './file-sink.ts';
import { syslogSink } from './syslog-sink.ts';
import { webhookSink } from './webhook-sink.ts';
import { startPassLoop, type PassLoop } from '../lib/pass-loop.ts';

/** How often the outbox is looked at without a wake-up (rows from other servers, retries). */
const POLL_MS = 2000;
/** How long after a write the pass waits, so one pass moves the rows of many requests. */
const WAKE_MS = 250;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

export interface AuditExport {
  /** runs one pass now (tests); resolves when it is done */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/** The sinks `config.audit` switches on. */
export function configuredSinks(config: Deps['config']): AuditSink[] {
  const { file, syslog, webhook } = config.audit;
  return [file.enabled ? fileSink(file) : null, syslog.enabled ? syslogSink(syslog) : null, webhook.enabled ? webhookSink(webhook) : null]
    .filter((s): s is AuditSink => s !== null);
}

/**
 * The durable outbox's delivery side. The outbox is the audit table itself: rows get a
 * sequence number as they move in from the inbox (`moveAuditInbox`), and each sink's `audit_export.delivered_seq` says how far it got, advanced
 * only after the sink took the batch. A receiver that is down is retried with backoff (0.5 s
 * doubling to 30 s) for as long as it takes; nothing is dropped, and rows not yet delivered
 * are kept from retention. Delivery is at least once (a crash between sending and recording
 * sends that batch again): receivers drop repeated sequence numbers. Runs beside requests,
 * which only wake it.
 * @example const exporter = startAuditExport(deps, configuredSinks(deps.config));
 */
export function startAuditExport(deps: Pick<Deps, 'db'>, sinks: AuditSink[]): AuditExport {
  const retry = new Map<string, { at: number; wait: number }>();
  let stopped = false;
  const pass = async () => {
    while (await moveAuditInbox(deps.db) > 0 && !stopped);
    for (const sink of sinks) if (!stopped) await deliverBacklog(deps.db, sink, retry);
  };
  // runs without sinks too: it empties the audit inbox into the indexed table
  const loop: PassLoop = startPassLoop(pass, POLL_MS, WAKE_MS);
  configureAudit({ wake: () => loop.wake() });
  return {
    drain: () => loop.drain(),
    stop: async () => {
      stopped = true;
      configureAudit({ wake: () => {} });
      await loop.stop();
      for (const sink of sinks) await sink.close();
    },
  };
}

/** Sends a sink everything past its cursor, batch by batch, until caught up or refused. */
async function deliverBacklog(db: Db, sink: AuditSink, retry: Map<string, { at: number; wait: number }>): Promise<void> {
  const backoff = retry.get(sink.name);
  if (backoff && Date.now() < backoff.at) return;
  await db.insertInto('audit_export').values({ sink: sink.name, delivered_seq: 0, last_error: '', updated: now() })
    .onConflict((oc) => oc.column('sink').doNothing()).execute();
  for (;;) {
    const state = await db.selectFrom('audit_export').select('delivered_seq').where('sink', '=', sink.name).executeTakeFirstOrThrow();
    const rows = await db.selectFrom('audit').selectAll().where('seq', '>', Number(state.delivered_seq)).orderBy('seq').limit(sink.batch).execute();
    if (!rows.length) return;
    try {
      await sink.deliver(rows.map(exportedEvent));
    } catch (err) {
      const wait = Math.min((backoff?.wait ?? RETRY_FIRST_MS / 2) * 2, RETRY_MAX_MS);
      retry.set(sink.name, { at: Date.now() + wait, wait });
      await db.updateTable('audit_export').set({ last_error: String((err as Error).message ?? err).slice(0, 500), updated: now() }).where('sink', '=', sink.name).execute();
      return;
    }
    retry.delete(sink.name);
    await db.updateTable('audit_export').set({ delivered_seq: Number(rows.at(-1)!.seq), last_error: '', updated: now() }).where('sink', '=', sink.name).execute();
  }
}
