import pg from 'pg';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, type DbSettings } from '../../src/server/db/database.ts';
import type { DialectName } from './dialects.ts';

// Migrating takes ~0.2 s on SQLite and 1–2 s on PostgreSQL; a suite boots hundreds of servers.
// Each dialect is migrated once into a template, and every test database starts as a copy of it.
// The template's name carries a digest of the migrations, so a changed migration makes a new one
// and runs of other checkouts (other migrations) never share or drop each other's.

const MIGRATIONS = new URL('../../src/server/db/migrations/', import.meta.url);

/** A digest of every migration's source: same migrations, same template. */
function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).sort()) {
    hash.update(name).update(readFileSync(new URL(name, MIGRATIONS)));
  }
  return hash.digest('hex').slice(0, 12);
}

const digest = migrationsDigest();
export const POSTGRES_TEMPLATE = `signalbox_template_${digest}`;
const SQLITE_TEMPLATE = join(tmpdir(), 'signalbox-templates', `migrated-${digest}.sqlite`);

async function migrateInto(settings: DbSettings): Promise<void> {
  const db = openDatabase(settings);
  try {
    await migrateToLatest(db);
  } finally {
    // closing the last connection checkpoints SQLite's WAL into the file
    await db.destroy();
  }
}

/** Migrates a SQLite file beside the template and moves it into place in one rename. */
async function buildSqliteTemplate(): Promise<void> {
  if (existsSync(SQLITE_TEMPLATE)) return;
  mkdirSync(join(tmpdir(), 'signalbox-templates'), { recursive: true, mode: 0o700 });
  const building = `${SQLITE_TEMPLATE}.${randomBytes(4).toString('hex')}`;
  await migrateInto({ dialect: 'sqlite', host: building });
  renameSync(building, SQLITE_TEMPLATE);
}

export function postgresAdmin(): { host: string; port: number; user: string } {
  const [host, port] = (process.env.SIGNALBOX_TEST_PG_HOST ?? '127.0.0.1:5432').split(':');
  return { host: host!, port: Number(port ?? 5432), user: process.env.SIGNALBOX_TEST_PG_USER ?? 'postgres' };
}

/** Runs statements on the server's `postgres` database, one short connection. */
export async function onPostgresServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...postgresAdmin(), database: 'postgres' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates a database under a name of its own, then renames it to the template's: nobody copies
 * a half-migrated template, and when two runs race the loser drops its own copy.
 */
async function buildPostgresTemplate(): Promise<void> {
  const exists = (client: pg.Client) => client.query('select 1 from pg_database where datname = $1', [POSTGRES_TEMPLATE]).then((r) => r.rowCount! > 0);
  if (await onPostgresServer(exists)) return;
  const building = `signalbox_building_${randomBytes(6).toString('hex')}`;
  await onPostgresServer((c) => c.query(`create database ${building}`));
  const { host, port, user } = postgresAdmin();
  await migrateInto({ dialect: 'postgres', host: `${host}:${port}`, user, name: building });
  await onPostgresServer(async (c) => {
    try {
      await c.query(`alter database ${building} rename to ${POSTGRES_TEMPLATE}`);
    } catch (err) {
      if (!(await exists(c))) throw err;
      await c.query(`drop database if exists ${building} with (force)`);
    }
  });
}

const built = new Map<DialectName, Promise<void>>();

/** Builds the dialect's template if this run's migrations have none yet; once a process. */
export function ensureTemplate(dialect: DialectName): Promise<void> {
  let building = built.get(dialect);
  if (!building) {
    building = dialect === 'sqlite' ? buildSqliteTemplate() : buildPostgresTemplate();
    built.set(dialect, building);
  }
  return building;
}

/** A copy of the migrated SQLite template at `path` (0600, as the server makes its own file). */
export async function copySqliteTemplate(path: string): Promise<void> {
  await ensureTemplate('sqlite');
  copyFileSync(SQLITE_TEMPLATE, path);
}

/** Creates PostgreSQL database `name` as a copy of the migrated template. */
export async function createFromPostgresTemplate(name: string): Promise<void> {
  await ensureTemplate('postgres');
  await onPostgresServer((c) => c.query(`create database ${name} template ${POSTGRES_TEMPLATE}`));
}
