import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';

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
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(openSqliteFile(settings.host)) }) });
}

/** Distinct SQL texts kept compiled; queries are built from a small set of shapes. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Reuses compiled statements: preparing the same SQL on every query was the largest single
 * cost of a console page (bench/load.ts). Kysely runs each statement to completion before the
 * next (`all`/`run`), so sharing one is safe; a streamed query gets its own, since an iterating
 * statement is busy until it ends.
 */
function withStatementCache(file: SQLite.Database): SQLite.Database {
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
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const file = new SQLite(path);
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.pragma('synchronous = NORMAL');
  return file;
}

function postgresDialect(settings: DbSettings): PostgresDialect {
  const [host, port] = settings.host.split(':');
  // PostgreSQL returns bigint (count, sum) as strings; our counts always fit a JS number.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pg.Pool({
    host: host || '127.0.0.1',
    port: port ? Number(port) : 5432,
    user: settings.user,
    password: settings.password,
    database: settings.name,
    max: 10,
    ssl: settings.options?.sslmode === 'require' ? { rejectUnauthorized: false } : undefined,
  });
  // An idle connection dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on the next query.
  pool.on('error', (err) => console.warn(`[signalbox] idle PostgreSQL connection closed: ${err.message}`));
  return new PostgresDialect({ pool });
}

/** Brings the schema to the newest migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}

