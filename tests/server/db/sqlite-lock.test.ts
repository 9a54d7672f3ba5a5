import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { taskLog, waitForTask, hasStatus } from '../../support/engine.ts';
import { ADMIN } from '../../support/harness.ts';
import { freePort, startServerProcess, startTaskOverHttp, type ServerProcess } from '../../support/server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LINES = 200_000;

describe('another connection holding the SQLite write lock (real server process)', () => {
  let tmp: string;
  let port: number;
  let db: Db;
  let server: ServerProcess;
  let cookie: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-lock-'));
    port = await freePort();
    const scripts = join(tmp, 'scripts');
    mkdirSync(scripts);
    // prints for a few seconds, so most of its output arrives while the lock is held
    writeFileSync(join(scripts, 'many.sh'), `for i in $(seq 1 20); do seq $(( (i - 1) * ${LINES / 20} + 1 )) $(( i * ${LINES / 20} )); sleep 0.2; done\n`);
    const env = {
      ...process.env, SEMAPHORE_DB_HOST: join(tmp, 'db.sqlite'), SEMAPHORE_PORT: String(port), SEMAPHORE_INTERFACE: '127.0.0.1',
      SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password,
    };
    server = await startServerProcess(env, port);
    db = openDatabase({ dialect: 'sqlite', host: join(tmp, 'db.sqlite') });
    await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'many.sh' });
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
    });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  }, 60_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('keeps answering pings, answers writes 503 with Retry-After, and stores every line of a running task late', async () => {
    const id = await startTaskOverHttp(port, 1, 1);
    await waitForTask(db, id, hasStatus('running'));
    const holder = new SQLite(join(tmp, 'db.sqlite'));
    holder.exec('BEGIN EXCLUSIVE');
    const pingTimes: number[] = [];
    let write: Response | undefined;
    try {
      const post = fetch(`http://127.0.0.1:${port}/api/projects`, {
        method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ name: 'During the lock' }),
      }).then((r) => { write = r; });
      const lockedUntil = Date.now() + 10_000;
      while (Date.now() < lockedUntil) {
        const started = Date.now();
        const pong = await fetch(`http://127.0.0.1:${port}/api/ping`, { signal: AbortSignal.timeout(5000) });
        expect(await pong.text()).toBe('pong');
        pingTimes.push(Date.now() - started);
        await sleep(100);
      }
      await post;
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(write!.status).toBe(503);
    expect(write!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await write!.json()).error).toMatch(/database/);
    // a frozen event loop would show as pings taking seconds; ~100 ms plus load is fine
    expect(Math.max(...pingTimes)).toBeLessThan(1500);

    const done = await waitForTask(db, id, hasStatus('success', 'error'), 60_000);
    const numbers = (await taskLog(db, id)).filter((l) => /^\d+$/.test(l)).map(Number);
    expect(done.status).toBe('success');
    expect(numbers.length).toBe(LINES);
    expect(numbers.every((n, i) => n === i + 1)).toBe(true);
  }, 120_000);
});
