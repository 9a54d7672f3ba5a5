import { sql, type AliasedRawBuilder, type WhereInterface } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { isPostgres } from '../../db/dialect.ts';
import { now } from '../../lib/time.ts';

/** The `audit_export` row that holds the last sequence number given. */
export const SEQUENCE_ROW = '_sequence';
const BATCH = 1000;

/** What an audit record says, in the order the writer fills it (the inbox adds its id). */
export const RECORD_COLUMNS = ['created', 'action', 'actor_user_id', 'actor_name', 'actor_token', 'client_ip', 'user_agent', 'project_id',
  'project_name', 'object_type', 'object_id', 'object_name', 'fields', 'description', 'request'] as const;

/** The activity-log entry a record carries (`event_id` besides), in the order the writer fills it. */
export const EVENT_COLUMNS = ['event_project_id', 'event_user_id', 'event_integration_id', 'event_object_id', 'event_object_type', 'event_object_name',
  'event_description'] as const;

/** The columns a row keeps when it moves from the inbox into `audit`. */
const AUDIT_COLUMNS = ['id', ...RECORD_COLUMNS] as const;

/**
 * Moves the oldest rows of `audit_inbox` into `audit`, giving them the next sequence numbers
 * (gap-free, in commit order as far as one reader can see it). Changes write their records to
 * the unindexed inbox because that is cheap; the indexes of `audit` are paid here, a batch at a
 * time. One mover at a time: the counter row is locked (PostgreSQL) or the write transaction is
 * exclusive (SQLite). Returns how many rows moved.
 * @example while (await moveAuditInbox(db) > 0);
 */
export async function moveAuditInbox(db: Db): Promise<number> {
  if (!await db.selectFrom('audit_inbox').select('id').limit(1).executeTakeFirst()) return 0;
  return db.transaction().execute(async (tx) => {
    await tx.insertInto('audit_export').values({ sink: SEQUENCE_ROW, delivered_seq: 0, last_error: '', updated: now() })
      .onConflict((oc) => oc.column('sink').doNothing()).execute();
    const counter = await tx.selectFrom('audit_export').select('delivered_seq').where('sink', '=', SEQUENCE_ROW)
      .$call((q) => (isPostgres(tx) ? q.forUpdate() : q)).executeTakeFirstOrThrow();
    const batch = await oldestBatch(tx);
    if (!batch.count) return 0;
    const last = Number(counter.delivered_seq);
    await tx.insertInto('audit').columns([...AUDIT_COLUMNS, 'seq'])
      .expression(batch.where(tx.selectFrom('audit_inbox').select([...AUDIT_COLUMNS, batch.sequence(last)])))
      .execute();
    await tx.insertInto('event').columns(['id', 'project_id', 'user_id', 'integration_id', 'object_id', 'object_type', 'object_name', 'description', 'created', 'audit_id'])
      .expression(batch.where(carriedEntries(tx))).execute();
    await batch.where(tx.deleteFrom('audit_inbox')).execute();
    await tx.updateTable('audit_export').set({ delivered_seq: last + batch.count, updated: now() }).where('sink', '=', SEQUENCE_ROW).execute();
    return batch.count;
  });
}

/**
 * The activity-log entries the inbox carries, as `event` rows naming their audit rows. As the
 * foreign keys of `event` would have done: an entry of a project deleted meanwhile goes with it,
 * and one of a user deleted meanwhile keeps no user.
 */
function carriedEntries(tx: Tx) {
  return tx.selectFrom('audit_inbox').select((eb) => [
    'event_id as id', 'event_project_id as project_id',
    eb.selectFrom('user').select('user.id').whereRef('user.id', '=', 'audit_inbox.event_user_id').as('user_id'),
    'event_integration_id as integration_id', 'event_object_id as object_id', sql<string>`"event_object_type"`.as('object_type'),
    sql<string>`"event_object_name"`.as('object_name'), sql<string>`"event_description"`.as('description'), 'created', 'id as audit_id',
  ])
    .where('event_id', 'is not', null)
    .where((eb) => eb.or([
      eb('event_project_id', 'is', null),
      eb.exists(eb.selectFrom('project').select('project.id').whereRef('project.id', '=', 'audit_inbox.event_project_id')),
    ]));
}

/** The oldest rows of the inbox, as the filter and numbering of the statements that move them. */
interface Batch {
  count: number;
  where<Q extends WhereInterface<Database, 'audit_inbox'>>(query: Q): Q;
  sequence(lastSeq: number): AliasedRawBuilder<number, 'seq'>;
}

/**
 * Names the oldest rows by their id range when the ids have no gaps (the usual case; cheaper
 * than a list by several microseconds a row on SQLite): a full range holds no id that commits
 * later, so that is safe on PostgreSQL too. Otherwise by the list of ids, numbered in id order.
 */
async function oldestBatch(tx: Tx): Promise<Batch> {
  const span = await tx.selectFrom(tx.selectFrom('audit_inbox').select('id').orderBy('id').limit(BATCH).as('oldest'))
    .select((eb) => [eb.fn.min<number>('id').as('first'), eb.fn.max<number>('id').as('last'), eb.fn.countAll<number>().as('count')])
    .executeTakeFirstOrThrow();
  const [first, last, count] = [Number(span.first), Number(span.last), Number(span.count)];
  if (!count || last - first + 1 === count) {
    return {
      count,
      where: (query) => query.where('audit_inbox.id', '>=', first).where('audit_inbox.id', '<=', last) as typeof query,
      sequence: (lastSeq) => sql<number>`"audit_inbox"."id" + ${lastSeq + 1 - first}`.as('seq'),
    };
  }
  const ids = (await tx.selectFrom('audit_inbox').select('id').orderBy('id').limit(BATCH).execute()).map((r) => r.id);
  return {
    count: ids.length,
    where: (query) => query.where('audit_inbox.id', 'in', ids) as typeof query,
    sequence: (lastSeq) => sql<number>`${lastSeq} + row_number() over (order by "audit_inbox"."id")`.as('seq'),
  };
}

/**
 * Moves every row still in the inbox, so a reader of `audit` sees each change that has
 * committed. Nearly free when the inbox is empty, as the exporter keeps it.
 * @example await settleAuditInbox(db); const rows = await db.selectFrom('audit')...
 */
export async function settleAuditInbox(db: Db): Promise<void> {
  while (await moveAuditInbox(db) > 0);
}

/** How many audit rows wait in the inbox for their sequence number. */
export async function inboxLength(db: Db): Promise<number> {
  return Number((await db.selectFrom('audit_inbox').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
}
