import { sql, type SelectQueryBuilder } from 'kysely';
import type { AuditRow, Database } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import { inboxLength, settleAuditInbox } from './audit-inbox.ts';
import { notAboutTemplates } from '../templates/hidden-template-rows.ts';

/** What the Audit screens and their exports filter by; every part is optional. */
export interface AuditFilter {
  /** the acting user's id, or a name (exact, case-insensitive) */
  user?: string;
  action?: string;
  object_type?: string;
  project_id?: number;
  /** ISO times, inclusive from, exclusive to */
  from?: string;
  to?: string;
  /** words that must all appear somewhere in the row (name, description, address, agent, ...) */
  q?: string;
  /** cursor: only rows with a smaller id (the previous page's `next`) */
  before?: number;
  /** templates the reader does not see: rows about them, their tasks and schedules are left out (issue 52) */
  hiddenTemplates?: readonly number[];
}

type AuditQuery = SelectQueryBuilder<Database, 'audit', AuditRow>;

/** The columns full-text search reads. */
const SEARCHED = ['actor_name', 'actor_token', 'action', 'object_type', 'object_name', 'project_name', 'description', 'client_ip', 'user_agent', 'fields', 'request'] as const;

/**
 * The audit rows a filter selects, newest first (by id, the cursor).
 * @example await filteredAudit(db, { action: 'login_fail' }).limit(50).execute();
 */
export function filteredAudit(db: Db, filter: AuditFilter): AuditQuery {
  let query = db.selectFrom('audit').selectAll() as AuditQuery;
  if (filter.user) {
    const user = filter.user;
    query = /^\d+$/.test(user) ? query.where('actor_user_id', '=', Number(user)) : query.where(sql`lower(actor_name)`, '=', user.toLowerCase());
  }
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.object_type) query = query.where('object_type', '=', filter.object_type);
  if (filter.project_id !== undefined) query = query.where('project_id', '=', filter.project_id);
  if (filter.from) query = query.where('created', '>=', filter.from);
  if (filter.to) query = query.where('created', '<', filter.to);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  if (filter.hiddenTemplates?.length) query = query.where(notAboutTemplates('audit', filter.hiddenTemplates));
  for (const word of (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8)) {
    const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or(SEARCHED.map((column) => eb(sql`lower(${sql.ref(column)})`, 'like', sql`${pattern} escape '\\'`))));
  }
  return query.orderBy('id', 'desc');
}

/** One page of rows and the cursor of the next (null on the last page). */
export async function auditPage(db: Db, filter: AuditFilter, limit: number): Promise<{ rows: AuditRow[]; next: number | null }> {
  await settleAuditInbox(db);
  const rows = await filteredAudit(db, filter).limit(limit + 1).execute();
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { rows: page, next: more ? page.at(-1)!.id : null };
}

/**
 * Every row of a filter, in batches of `batch` by id (keyset), so a million rows never sit in
 * memory at once.
 * @example for await (const row of eachAuditRow(db, filter)) write(row);
 */
export async function* eachAuditRow(db: Db, filter: AuditFilter, batch = 1000): AsyncGenerator<AuditRow> {
  await settleAuditInbox(db);
  let before = filter.before;
  for (;;) {
    const rows = await filteredAudit(db, { ...filter, before }).limit(batch).execute();
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    before = rows.at(-1)!.id;
  }
}

/** Per export sink: how far it got and how many rows wait for it. */
export interface AuditBacklog { sink: string; delivered_seq: number; pending: number; last_error: string; updated: string }

/** The backlog of each named sink (rows still in the inbox wait for every sink). */
export async function auditBacklog(db: Db, sinks: string[]): Promise<AuditBacklog[]> {
  if (!sinks.length) return [];
  const states = await db.selectFrom('audit_export').selectAll().where('sink', 'in', sinks).execute();
  const unnumbered = await inboxLength(db);
  const result: AuditBacklog[] = [];
  for (const sink of sinks) {
    const state = states.find((s) => s.sink === sink);
    const delivered = Number(state?.delivered_seq ?? 0);
    const waiting = Number((await db.selectFrom('audit').select((eb) => eb.fn.countAll().as('n')).where('seq', '>', delivered).executeTakeFirstOrThrow()).n);
    result.push({ sink, delivered_seq: delivered, pending: waiting + unnumbered, last_error: state?.last_error ?? '', updated: state?.updated ?? '' });
  }
  return result;
}
