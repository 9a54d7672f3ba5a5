import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { DbSettings } from '../../src/server/db/database.ts';

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

/** Both dialects; PostgreSQL only when reachable (always under CI). */
export const DIALECTS: DialectName[] = ['sqlite', ...((await isPostgresReachable()) ? ['postgres' as const] : [])];

/** A fresh, empty database of the dialect; `drop` removes it. */
export async function freshDatabase(dialect: DialectName, sqliteDir: string): Promise<{ settings: DbSettings; drop: () => Promise<void> }> {
  const suffix = randomBytes(6).toString('hex');
  if (dialect === 'sqlite') {
    return { settings: { dialect, host: `${sqliteDir}/test-${suffix}.sqlite` }, drop: async () => {} };
  }
  const name = `signalbox_test_${suffix}`;
  const [host, port] = PG_HOST.split(':');
  const admin = new pg.Client({ host, port: Number(port ?? 5432), user: PG_USER, database: 'postgres' });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    settings: { dialect, host: PG_HOST, user: PG_USER, name },
    drop: async () => {
      const c = new pg.Client({ host, port: Number(port ?? 5432), user: PG_USER, database: 'postgres' });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
