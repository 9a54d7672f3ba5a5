import { CompiledQuery } from 'kysely';
import type SQLite from 'better-sqlite3';
import { sqliteFileOfTransaction, type Db, type Tx } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import { now } from '../../lib/time.ts';
import { currentAuditRequest, type AuditActor, type AuditRequest } from './audit-context.ts';
import { actionOfDescription, routeAction, routeObjectId } from './audit-actions.ts';
import { RECORD_COLUMNS } from './audit-inbox.ts';

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
  if (!settings.enabled) return null;
  const request = currentAuditRequest();
  if (request) request.written++;
  const fromRoute = request ? routeAction(request.route) : undefined;
  const actor = entry.actor !== undefined ? entry.actor : request ? request.actor : SERVER;
  const projectId = entry.projectId !== undefined ? entry.projectId : request?.project?.id ?? null;
  const action = entry.action ?? fromRoute?.action ?? actionOfDescription(entry.description ?? '');
  const fields = entry.fields ?? (request && /update|change/.test(action) ? request.fields : []);
  const id = await insertInboxRow(db, [
    now(), action, actor?.userId ?? null, actor?.name ?? '', actor?.token ?? '', request?.clientIp ?? '', (request?.userAgent ?? '').slice(0, 512),
    projectId, entry.projectName ?? knownProjectName(request, projectId) ?? await projectName(db, projectId), entry.objectType ?? fromRoute?.object ?? '',
    entry.objectId ?? null, entry.objectName ?? '', fields.join(','), entry.description ?? '', request?.route ?? '',
  ]);
  settings.wake();
  if (request) request.auditId ??= id;
  return id;
}

/**
 * Inserts one inbox row and returns its id: in a SQLite transaction on the file's own statement,
 * else through the query builder, as one fixed statement compiled once.
 */
async function insertInboxRow(db: Db | Tx, values: unknown[]): Promise<number> {
  const file = sqliteFileOfTransaction(db);
  if (file) return Number((inboxStatement(file).get(...values) as { id: number }).id);
  const inserted = await db.executeQuery<{ id: number }>(CompiledQuery.raw(insertSql(db), values));
  return Number(inserted.rows[0]!.id);
}

/**
 * `insert into audit_inbox (...) values (...)` in the dialect's placeholders. The id is the
 * audit row's for good: PostgreSQL draws it from `audit`'s sequence; SQLite, whose writers take
 * turns, takes the next after the highest `audit` ever had and the inbox has.
 */
function insertSql(db: Db | Tx): string {
  return isPostgres(db) ? (INSERT_SQL.postgres ??= buildInsertSql(true)) : (INSERT_SQL.sqlite ??= buildInsertSql(false));
}

const INSERT_SQL: { postgres?: string; sqlite?: string } = {};

const inboxStatements = new WeakMap<SQLite.Database, SQLite.Statement>();

/** The inbox insert prepared once per SQLite file (it runs to completion, so it is never busy). */
function inboxStatement(file: SQLite.Database): SQLite.Statement {
  let statement = inboxStatements.get(file);
  if (!statement) inboxStatements.set(file, statement = file.prepare(INSERT_SQL.sqlite ??= buildInsertSql(false)));
  return statement;
}

function buildInsertSql(postgres: boolean): string {
  const columns = RECORD_COLUMNS.map((c) => `"${c}"`).join(', ');
  if (postgres) return `insert into "audit_inbox" (${columns}) values (${RECORD_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) returning "id"`;
  // `audit` counts its highest id ever in sqlite_sequence (AUTOINCREMENT), also for ids moved in
  // from the inbox: an id stays unique after rows are purged, so activity entries never point at a stranger
  const nextId = `(select coalesce(max("id"), 0) + 1 from (select "seq" as "id" from "sqlite_sequence" where "name" = 'audit' union all select max("id") from "audit_inbox"))`;
  return `insert into "audit_inbox" ("id", ${columns}) values (${nextId}, ${RECORD_COLUMNS.map(() => '?').join(', ')}) returning "id"`;
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
 * The audit row of an activity-log event: the first event of a request describes what the
 * request did (later ones are its consequences, such as the keys a new project gets, and share
 * its row); events the server makes on its own (schedules, the engine) are each recorded. A bulk
 * request (`auditEachItem`) records its items itself: an item's event shares the row written for
 * that item (`beginAuditItem` starts an item), none when it comes first.
 * @returns the id of the audit row that describes the event (null while auditing is off)
 */
export async function auditEvent(db: Db | Tx, event: { projectId: number | null; userId: number | null; objectType: string; objectId: number | null; objectName?: string; auditName?: string; description: string }): Promise<number | null> {
  if (!settings.enabled) return null;
  const request = currentAuditRequest();
  if (request && (request.written > 0 || request.itemised)) return request.auditId;
  return writeAudit(db, {
    projectId: event.projectId ?? (request ? undefined : null), objectType: event.objectType || undefined, objectId: event.objectId,
    objectName: event.objectName || event.auditName || await nameOf(db, event.objectType, event.objectId), description: event.description,
    actor: request ? undefined : { userId: event.userId, name: event.userId === null ? 'system' : await nameOf(db, 'user', event.userId), token: '' },
  });
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
