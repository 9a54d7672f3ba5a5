import { CompiledQuery } from 'kysely';
import type SQLite from 'better-sqlite3';
import { sqliteFileOfTransaction, type Db, type Tx } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { now } from '../../lib/time.ts';
import { currentAuditRequest, type AuditActor, type AuditRequest } from './audit-context.ts';
import { actionOfDescription, routeAction, routeObjectId } from './audit-actions.ts';
import { EVENT_COLUMNS, RECORD_COLUMNS } from './audit-inbox.ts';

/** One audit record; what is left out comes from the current request (actor, address, route). */
export interface AuditEntry {
  action?: string;
  objectType?: string;
  objectId?: number | null;
  objectName?: string;
  projectId?: number | null;
  projectName?: string;
  description?: string;
  /** names of the fields an update set; defaults to the request body's names */
  fields?: string[];
  /** who acts, when the request's caller is not it (a sign-in names the user signing in) */
  actor?: AuditActor | null;
}

/** Longest user agent an audit row keeps: enough to tell browsers and tools apart. */
export const AUDITED_USER_AGENT_LENGTH = 200;

/** The actor of changes the server makes on its own (schedules, retention, the engine). */
const SERVER: AuditActor = { userId: null, name: 'system', token: '' };

const settings = { enabled: true, wake: (): void => {} };

/**
 * Switches audit writing (on unless `SIGNALBOX_AUDIT_ENABLED=false`, which exists to measure
 * its cost) and names what to wake when rows were written (the exporter).
 */
export function configureAudit(options: { enabled?: boolean; wake?: () => void }): void {
  if (options.enabled !== undefined) settings.enabled = options.enabled;
  if (options.wake) settings.wake = options.wake;
}

/** Whether audit rows are being written (the request hook stands aside when not). */
export function auditEnabled(): boolean {
  return settings.enabled;
}

/**
 * Writes one audit row with `db`, which is the transaction of the change it describes, so a
 * change commits with its record or not at all. The row goes to the inbox (`audit-inbox.ts`).
 * @returns the row's id (null while auditing is off)
 * @example await writeAudit(tx, { objectType: 'key', objectId: key.id, objectName: key.name });
 */
export async function writeAudit(db: Db | Tx, entry: AuditEntry): Promise<number | null> {
  return settings.enabled ? writeRecord(db, entry, null) : null;
}

/** An activity-log entry as `recordEvent` takes it. */
export interface ActivityEntry {
  projectId: number | null;
  userId: number | null;
  integrationId?: number | null;
  objectType: string;
  objectId: number | null;
  objectName?: string;
  /** the object's name for the audit row when the entry shows none */
  auditName?: string;
  description: string;
}

/** Writes the inbox row of `entry`, carrying `event` into `event` when it moves (null: none). */
async function writeRecord(db: Db | Tx, entry: AuditEntry, event: ActivityEntry | null): Promise<number> {
  const request = currentAuditRequest();
  if (request) request.written++;
  const fromRoute = request ? routeAction(request.route) : undefined;
  const actor = entry.actor !== undefined ? entry.actor : request ? request.actor : SERVER;
  const projectId = entry.projectId !== undefined ? entry.projectId : request?.project?.id ?? null;
  const action = entry.action ?? fromRoute?.action ?? actionOfDescription(entry.description ?? '');
  const fields = entry.fields ?? (request && /update|change/.test(action) ? request.fields : []);
  const id = await insertInboxRow(db, [
    now(), action, actor?.userId ?? null, actor?.name ?? '', actor?.token ?? '', request?.clientIp ?? '', (request?.userAgent ?? '').slice(0, AUDITED_USER_AGENT_LENGTH),
    projectId, entry.projectName ?? knownProjectName(request, projectId) ?? await projectName(db, projectId), entry.objectType ?? fromRoute?.object ?? '',
    entry.objectId ?? null, entry.objectName ?? '', fields.join(','), entry.description ?? '', request?.route ?? '',
  ], event && [event.projectId, event.userId, event.integrationId ?? null, event.objectId, event.objectType, event.objectName ?? '', event.description]);
  settings.wake();
  if (request) request.auditId ??= id;
  return id;
}

/**
 * Inserts one inbox row and returns its id: in a SQLite transaction on the file's own statement,
 * else through the query builder, as one fixed statement compiled once. A carried activity-log
 * entry takes its `event` id now, so entries keep the order they were made in.
 */
async function insertInboxRow(db: Db | Tx, record: unknown[], event: unknown[] | null): Promise<number> {
  const file = sqliteFileOfTransaction(db);
  if (file) return Number((statementsOf(file).insert.get(...record, event && reserveEventId(file), ...(event ?? NO_EVENT)) as { id: number }).id);
  const postgres = isPostgres(db);
  const eventId = postgres ? event !== null : event && await reserveEventIdThrough(db);
  const inserted = await db.executeQuery<{ id: number }>(CompiledQuery.raw(insertSql(postgres), [...record, eventId, ...(event ?? NO_EVENT)]));
  return Number(inserted.rows[0]!.id);
}

const NO_EVENT = EVENT_COLUMNS.map(() => null);

/**
 * `insert into audit_inbox (...) values (...)` in the dialect's placeholders. The id is the
 * audit row's for good: PostgreSQL draws it from `audit`'s sequence; SQLite, whose writers take
 * turns, takes the next after the highest `audit` ever had and the inbox has. A carried entry's
 * `event_id` comes from `event`'s own sequence (on PostgreSQL when its parameter is true).
 */
function insertSql(postgres: boolean): string {
  return postgres ? (INSERT_SQL.postgres ??= buildInsertSql(true)) : (INSERT_SQL.sqlite ??= buildInsertSql(false));
}

const INSERT_SQL: { postgres?: string; sqlite?: string } = {};

function buildInsertSql(postgres: boolean): string {
  const inserted = [...RECORD_COLUMNS, 'event_id', ...EVENT_COLUMNS];
  const columns = inserted.map((c) => `"${c}"`).join(', ');
  if (postgres) {
    const values = RECORD_COLUMNS.map((_, i) => `$${i + 1}`);
    const eventId = `case when $${values.length + 1}::boolean then nextval(pg_get_serial_sequence('event', 'id')) end`;
    const event = EVENT_COLUMNS.map((_, i) => `$${values.length + 2 + i}`);
    return `insert into "audit_inbox" (${columns}) values (${[...values, eventId, ...event].join(', ')}) returning "id"`;
  }
  // `audit` counts its highest id ever in sqlite_sequence (AUTOINCREMENT), also for ids moved in
  // from the inbox: an id stays unique after rows are purged, so activity entries never point at a stranger
  const nextId = `(select coalesce(max("id"), 0) + 1 from (select "seq" as "id" from "sqlite_sequence" where "name" = 'audit' union all select max("id") from "audit_inbox"))`;
  return `insert into "audit_inbox" ("id", ${columns}) values (${nextId}, ${inserted.map(() => '?').join(', ')}) returning "id"`;
}

/**
 * SQLite: takes the next `event` id by moving the table's AUTOINCREMENT counter, which every
 * later entry then passes (its row in sqlite_sequence is on a page the change dirties anyway).
 */
const RESERVE_EVENT_ID = `update "sqlite_sequence" set "seq" = "seq" + 1 where "name" = 'event' returning "seq"`;
/** The counter's row appears with the first entry ever; until then it is made here. */
const START_EVENT_IDS = `insert into "sqlite_sequence" ("name", "seq") select 'event', coalesce(max("id"), 0) from "event"`;

interface InboxStatements { insert: SQLite.Statement; reserve: SQLite.Statement; start: SQLite.Statement }

const inboxStatements = new WeakMap<SQLite.Database, InboxStatements>();

/** The inbox's statements prepared once per SQLite file (each runs to completion, so none is ever busy). */
function statementsOf(file: SQLite.Database): InboxStatements {
  let statements = inboxStatements.get(file);
  if (!statements) {
    statements = { insert: file.prepare(insertSql(false)), reserve: file.prepare(RESERVE_EVENT_ID), start: file.prepare(START_EVENT_IDS) };
    inboxStatements.set(file, statements);
  }
  return statements;
}

function reserveEventId(file: SQLite.Database): number {
  const { reserve, start } = statementsOf(file);
  let reserved = reserve.get() as { seq: number } | undefined;
  if (!reserved) {
    start.run();
    reserved = reserve.get() as { seq: number };
  }
  return Number(reserved.seq);
}

/** reserveEventId outside a transaction (SQLite through the query builder). */
async function reserveEventIdThrough(db: Db | Tx): Promise<number> {
  const reserve = async () => (await db.executeQuery<{ seq: number }>(CompiledQuery.raw(RESERVE_EVENT_ID, []))).rows[0];
  let reserved = await reserve();
  if (!reserved) {
    await db.executeQuery(CompiledQuery.raw(START_EVENT_IDS, []));
    reserved = await reserve();
  }
  return Number(reserved!.seq);
}

/** The project's name when no look-up is needed: none, or the request's own project. */
function knownProjectName(request: AuditRequest | undefined, projectId: number | null): string | undefined {
  if (projectId === null) return '';
  return request?.project?.id === projectId ? request.project.name : undefined;
}

async function projectName(db: Db | Tx, projectId: number | null): Promise<string> {
  const row = await db.selectFrom('project').select('name').where('id', '=', projectId).executeTakeFirst();
  return row?.name ?? '';
}

/**
 * The audit side of an activity-log entry: the first entry of a request describes what the
 * request did (later ones are its consequences, such as the keys a new project gets, and share
 * its row); entries the server makes on its own (schedules, the engine) are each recorded. A bulk
 * request (`auditEachItem`) records its items itself: an item's entry shares the row written for
 * that item (`beginAuditItem` starts an item), none when it comes first. An entry that gets a row
 * of its own travels in it (one row written instead of two) and reaches `event` when the row
 * moves out of the inbox; readers of `event` settle the inbox first.
 * @returns carried: nothing left to write; else the id of the audit row the entry names (null while auditing is off)
 */
export async function auditEvent(db: Db | Tx, event: ActivityEntry): Promise<{ carried: true } | { carried: false; auditId: number | null }> {
  if (!settings.enabled) return { carried: false, auditId: null };
  const request = currentAuditRequest();
  if (request && (request.written > 0 || request.itemised)) return { carried: false, auditId: request.auditId };
  await writeRecord(db, {
    projectId: event.projectId ?? (request ? undefined : null), objectType: event.objectType || undefined, objectId: event.objectId,
    objectName: event.objectName || event.auditName || await nameOf(db, event.objectType, event.objectId), description: event.description,
    actor: request ? undefined : { userId: event.userId, name: event.userId === null ? 'system' : await nameOf(db, 'user', event.userId), token: '' },
  }, event);
  return { carried: true };
}

/**
 * The safety net for a successful state-changing request that wrote no audit row itself:
 * records it from its route after the fact (outside its transaction). Tests list the routes
 * that still rely on it.
 */
export async function auditUnrecorded(db: Db, request: AuditRequest): Promise<void> {
  if (request.written > 0 || request.unchanged) return;
  await writeAudit(db, { objectId: routeObjectId(request.params), description: 'recorded after the change' });
}

/**
 * Runs `work` in a transaction and writes the audit row `entry` makes of its result in the same
 * transaction (none when `entry` gives null).
 * @example await withAudit(db, (tx) => createApiToken(tx, userId, input), (token) => ({ objectName: token.name }));
 */
export function withAudit<T>(db: Db, work: (tx: Tx) => Promise<T>, entry: (result: T) => AuditEntry | null): Promise<T> {
  return db.transaction().execute(async (tx) => {
    const result = await work(tx);
    const record = entry(result);
    if (record) await writeAudit(tx, record);
    return result;
  });
}

/** Where an object type's name lives, for events that name the object only by id. */
const NAME_COLUMNS: Record<string, [table: 'access_key' | 'repository' | 'inventory' | 'environment' | 'template' | 'schedule' | 'integration' | 'project', column: 'name']
  | [table: 'view', column: 'title'] | [table: 'user', column: 'username']> = {
  key: ['access_key', 'name'], repository: ['repository', 'name'], inventory: ['inventory', 'name'], environment: ['environment', 'name'],
  template: ['template', 'name'], schedule: ['schedule', 'name'], integration: ['integration', 'name'], project: ['project', 'name'],
  view: ['view', 'title'], user: ['user', 'username'],
};

/** The current name of an object ('' when it is gone or has none). */
async function nameOf(db: Db | Tx, objectType: string, objectId: number | null): Promise<string> {
  const where = NAME_COLUMNS[objectType];
  if (!where || objectId === null) return '';
  const [table, column] = where;
  const query = `select "${column}" as name from "${table}" where "id" = ${isPostgres(db) ? '$1' : '?'}`;
  const result = await db.executeQuery<{ name: string }>(CompiledQuery.raw(query, [objectId]));
  return result.rows[0] ? String(result.rows[0].name) : '';
}
