import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import type { DbSettings } from '../../src/server/db/database.ts';
import { copySqliteTemplate, createFromPostgresTemplate, onPostgresServer } from './database-template.ts';

export type DialectName = 'sqlite' | 'postgres';

const PG_HOST = process.env.SIGNALBOX_TEST_PG_HOST ?? '127.0.0.1:5432';
const PG_USER = process.env.SIGNALBOX_TEST_PG_USER ?? 'postgres';

let postgresReachable: Promise<boolean> | undefined;

/** True when a PostgreSQL server answers; under CI a missing server is an error, not a skip. */
export function isPostgresReachable(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const [host, port] = PG_HOST.split(':');
    const client = new pg.Client({ host, port: Number(port ?? 5432), user: PG_USER, database: 'postgres', connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (err) {
      if (process.env.CI) throw new Error(`PostgreSQL at ${PG_HOST} is required under CI: ${(err as Error).message}`);
      console.warn(`\n*** PostgreSQL at ${PG_HOST} is not reachable: PostgreSQL tests are SKIPPED ***\n`);
      return false;
    }
  })();
  return postgresReachable;
}

/** SIGNALBOX_TEST_DIALECTS=sqlite (`npm run test:quick`) leaves PostgreSQL out on purpose. */
const wanted = (process.env.SIGNALBOX_TEST_DIALECTS ?? 'sqlite,postgres').split(',');

/** Both dialects (or the ones asked for); PostgreSQL only when reachable (always under CI). */
export const DIALECTS: DialectName[] = [
  ...(wanted.includes('sqlite') ? ['sqlite' as const] : []),
  ...(wanted.includes('postgres') && (await isPostgresReachable()) ? ['postgres' as const] : []),
];

/** A fresh, empty database of the dialect; `drop` removes it. */
export function freshDatabase(dialect: DialectName, sqliteDir: string): Promise<{ settings: DbSettings; drop: () => Promise<void> }> {
  return newDatabase(dialect, sqliteDir, false);
}

/**
 * A fresh database of the dialect with every migration applied, copied from the run's template
 * (database-template.ts) instead of migrated again; `drop` removes it.
 */
export function migratedDatabase(dialect: DialectName, sqliteDir: string): Promise<{ settings: DbSettings; drop: () => Promise<void> }> {
  return newDatabase(dialect, sqliteDir, true);
}

/**
 * A fresh database as a copy of `source` (of the same dialect), which no connection may hold
 * open meanwhile: a database migrated to some step, copied instead of migrated there again.
 */
export function copiedDatabase(source: DbSettings, sqliteDir: string): Promise<{ settings: DbSettings; drop: () => Promise<void> }> {
  return newDatabase(source.dialect as DialectName, sqliteDir, source);
}

async function newDatabase(dialect: DialectName, sqliteDir: string, from: boolean | DbSettings): Promise<{ settings: DbSettings; drop: () => Promise<void> }> {
  const suffix = randomBytes(6).toString('hex');
  if (dialect === 'sqlite') {
    const host = `${sqliteDir}/test-${suffix}.sqlite`;
    if (from === true) await copySqliteTemplate(host);
    else if (from) copyFileSync(from.host, host);
    return { settings: { dialect, host }, drop: async () => {} };
  }
  const name = `signalbox_test_${suffix}`;
  if (from === true) await createFromPostgresTemplate(name);
  else if (from) await onPostgresServer((c) => c.query(`create database ${name} template ${from.name}`));
  else await onPostgresServer((c) => c.query(`create database ${name}`));
  // A test database outlives no crash of PostgreSQL, so its commits need not wait for the WAL to
  // reach the disk: what every statement does and returns, and what other connections see, is
  // the same; only the fsync wait per commit is gone (tests/README.md).
  await onPostgresServer((c) => c.query(`alter database ${name} set synchronous_commit = off`));
  return {
    settings: { dialect, host: PG_HOST, user: PG_USER, name },
    drop: () => onPostgresServer((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
