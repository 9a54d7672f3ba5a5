import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../../src/server/db/database.ts';

describe('the SQLite statement cache', () => {
  let tmp: string;
  let db: Db;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-stmt-'));
    db = openDatabase({ dialect: 'sqlite', host: join(tmp, 'db.sqlite') });
    await migrateToLatest(db);
    await db.insertInto('project').values([1, 2, 3].map((n) => ({ name: `P${n}`, created: new Date().toISOString(), alert: 0, alert_chat: null, max_parallel_tasks: 0, type: '' }))).execute();
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  const names = () => db.selectFrom('project').select('name').orderBy('id');

  it('answers a repeated query with fresh rows each time', async () => {
    expect((await names().execute()).map((r) => r.name)).toEqual(['P1', 'P2', 'P3']);
    await db.updateTable('project').set({ name: 'Renamed' }).where('name', '=', 'P2').execute();
    expect((await names().execute()).map((r) => r.name)).toEqual(['P1', 'Renamed', 'P3']);
    await db.updateTable('project').set({ name: 'P2' }).where('name', '=', 'Renamed').execute();
  });

  it('runs a query again after a stream of it, ended early or read to the end', async () => {
    for await (const row of names().stream()) {
      expect(row.name).toBe('P1');
      break;
    }
    expect(await names().execute()).toHaveLength(3);
    const streamed: string[] = [];
    for await (const row of names().stream()) streamed.push(row.name);
    expect(streamed).toEqual(['P1', 'P2', 'P3']);
    expect(await names().execute()).toHaveLength(3);
  });

  it('closes the file on destroy', async () => {
    const other = openDatabase({ dialect: 'sqlite', host: join(tmp, 'other.sqlite') });
    await migrateToLatest(other);
    await expect(other.destroy()).resolves.toBeUndefined();
  });
});
