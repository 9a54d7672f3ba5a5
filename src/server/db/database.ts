import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { RetryingSqliteDialect, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-retry.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbDialect = 'sqlite' | 'postgres';

export interface DbSettings {
  dialect: DbDialect;
  /** sqlite: file path (or ':memory:'); postgres: host[:port] */
  host: string;
  user?: string;
  password?: string;
  name?: string;
  /** postgres connection options such as `sslmode` */
  options?: Record<string, string>;
}

/**
 * Opens the database. SQLite runs in WAL mode with foreign keys on; PostgreSQL through a pool.
 * @example const db = openDatabase({ dialect: 'sqlite', host: './data/signalbox.sqlite' });
 */
export function openDatabase(settings: DbSettings): Db {
  if (settings.dialect === 'postgres') return new Kysely<Database>({ dialect: postgresDialect(settings) });
  const file = withStatementCache(openSqliteFile(settings.host));
  const db = new Kysely<Database>({ dialect: new RetryingSqliteDialect({ database: file }) });
  sqliteFiles.set(db.getExecutor().adapter, file);
  return db;
}

/** The SQLite file behind each database, by its adapter (a transaction shares its database's). */
const sqliteFiles = new WeakMap<object, SQLite.Database>();

/**
 * The SQLite file of an open transaction, for a statement that must not pay the query
 * builder's cost (~10 µs a statement; the audit row of every change). SQLite has one connection
 * and a transaction holds it until it ends, so a statement run on the file while `tx` is open
 * is part of `tx`. Undefined on PostgreSQL, and for anything but a transaction.
 * @example const file = sqliteFileOfTransaction(tx); file?.prepare(sql).get(...values);
 */
export function sqliteFileOfTransaction(tx: Db | Tx): SQLite.Database | undefined {
  return tx.isTransaction ? sqliteFiles.get(tx.getExecutor().adapter) : undefined;
}

/** Distinct SQL texts kept compiled; queries are built from a small set of shapes. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Reuses compiled statements: preparing the same SQL on every query was the largest single
 * cost of a console page (bench/load.ts). Kysely runs each statement to completion before the
 * next (`all`/`run`), so sharing one is safe; a streamed query gets its own, since an iterating
 * statement is busy until it ends.
 */
export function withStatementCache(file: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = file.prepare.bind(file);
  return new Proxy(file, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        let statement = cache.get(sql);
        if (!statement || statement.busy) {
          statement = prepare(sql);
          if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
          cache.set(sql, statement);
        }
        return statement;
      };
    },
  });
}

function openSqliteFile(path: string): SQLite.Database {
  if (path !== ':memory:') makePrivateFile(path);
  const file = new SQLite(path);
  useIncrementalVacuum(file);
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  file.pragma('synchronous = NORMAL');
  return file;
}

/**
 * Retention frees pages; with `auto_vacuum = INCREMENTAL` they can be cut off the file in small
 * steps later. A new file takes the setting at once; an existing one needs one VACUUM to switch.
 */
function useIncrementalVacuum(file: SQLite.Database): void {
  const INCREMENTAL = 2;
  if (file.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return;
  file.pragma('auto_vacuum = INCREMENTAL');
  const hasTables = file.prepare("select 1 from sqlite_master where type = 'table' limit 1").get();
  if (hasTables) file.exec('VACUUM');
}

/**
 * The database file and its -wal/-shm are the server's alone (0600, in a 0700 folder when we
 * make it): they hold every hashed password and sealed secret. SQLite gives -wal and -shm the
 * database file's mode; ones left by an older version are tightened here.
 */
function makePrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch { /* not there (yet) */ }
  }
}

/**
 * How to reach the PostgreSQL server of `settings`, for the pool and for the few connections of
 * their own (the event relay's LISTEN connection).
 */
export function postgresClientConfig(settings: DbSettings): pg.ClientConfig {
  const [host, port] = settings.host.split(':');
  return {
    host: host || '127.0.0.1',
    port: port ? Number(port) : 5432,
    user: settings.user,
    password: settings.password,
    database: settings.name,
    // while PostgreSQL is away, fail fast (503) instead of hanging every request
    connectionTimeoutMillis: 5000,
    ssl: settings.options?.sslmode === 'require' ? { rejectUnauthorized: false } : undefined,
  };
}

/**
 * The PostgreSQL driver, required on first use rather than imported above: a SQLite server never
 * loads it (~16 MB of memory).
 */
export function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

/** How long a query waits for one of the pool's connections while all are in use. */
const POOL_WAIT_MS = 30_000;

function postgresDialect(settings: DbSettings): PostgresDialect {
  const pg = loadPg();
  // PostgreSQL returns bigint (count, sum) as strings; our counts always fit a JS number.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const connect = postgresClientConfig(settings);
  // A new connection still gives up after the client's own timeout (PostgreSQL away: 503 fast),
  // but a request waiting for a free connection of the pool waits longer: a burst of starts
  // (a webhook storm, a bulk run) queues for the pool instead of failing.
  class FailFastClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'object' ? config : {}), connectionTimeoutMillis: connect.connectionTimeoutMillis });
    }
  }
  const pool = new pg.Pool({ ...connect, connectionTimeoutMillis: POOL_WAIT_MS, Client: FailFastClient, max: 10 });
  // A connection dropped by the server (stop, restart, failover) must not crash the process,
  // idle or in use: the pool replaces it, and the query in flight fails (503 to API callers).
  pool.on('error', (err) => console.warn(`[signalbox] idle PostgreSQL connection closed: ${err.message}`));
  pool.on('connect', (client) => client.on('error', (err) => console.warn(`[signalbox] PostgreSQL connection lost: ${err.message}`)));
  return new PostgresDialect({ pool });
}

/**
 * Brings the schema to the newest migration; throws with the failing migration's name. Pending
 * migrations run in name order even when one sorts before a migration already applied: work
 * merged side by side names its migrations independently.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}

