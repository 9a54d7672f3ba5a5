import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { freshDatabase, isPostgresReachable } from '../../support/dialects.ts';

/** Each of the pool's ten connections is held this long: longer than a new connection may take. */
const HOLD_SECONDS = 7;

/**
 * A burst of requests larger than the pool (100 task starts from a webhook storm, each a short
 * transaction) waits for a free connection; only a database that does not answer fails fast.
 */
describe.runIf(await isPostgresReachable())('the PostgreSQL pool under a burst', () => {
  let tmp: string;
  let db: Db;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-pool-'));
    const fresh = await freshDatabase('postgres', tmp);
    drop = fresh.drop;
    db = openDatabase(fresh.settings);
  });
  afterAll(async () => {
    await db?.destroy();
    await drop?.();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a query waits for one of ten busy connections instead of failing after the connect timeout', async () => {
    const busy = Array.from({ length: 10 }, () => sql`select pg_sleep(${HOLD_SECONDS})`.execute(db));
    const waiting = sql<{ answer: number }>`select 42 as answer`.execute(db);
    const [answer] = await Promise.all([waiting, ...busy]);
    expect((answer as { rows: { answer: number }[] }).rows).toEqual([{ answer: 42 }]);
  }, 60_000);

  it('a database that is not there still fails at once, not after the pool wait', async () => {
    const nowhere = openDatabase({ dialect: 'postgres', host: '127.0.0.1:1', user: 'postgres', name: 'none' });
    try {
      await expect(sql`select 1`.execute(nowhere)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await nowhere.destroy();
    }
  });
});
