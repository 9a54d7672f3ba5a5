import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { taskLog, waitForTask, hasStatus } from '../../support/engine.ts';
import { ADMIN } from '../../support/harness.ts';
import { freePort, startServerProcess, startTaskOverHttp, type ServerProcess } from '../../support/server-process.ts';

describe('crash recovery with a real server process (sqlite)', () => {
  let tmp: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess | null = null;
  let db: Db;
  let scriptPidFile: string;

  const startServer = () => startServerProcess(env, port);

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-crash-'));
    port = await freePort();
    scriptPidFile = join(tmp, 'script.pid');
    const scripts = join(tmp, 'scripts');
    mkdirSync(scripts);
    writeFileSync(join(scripts, 'long.sh'), `echo $$ > ${scriptPidFile}\necho before-crash-1\necho before-crash-2\nsleep 600\n`);
    env = {
      ...process.env, SEMAPHORE_DB_DIALECT: 'sqlite', SEMAPHORE_DB_HOST: join(tmp, 'db.sqlite'), SEMAPHORE_PORT: String(port),
      SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password,
    };
    server = await startServer();
    db = openDatabase({ dialect: 'sqlite', host: join(tmp, 'db.sqlite') });
    await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'long.sh' });
  });

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    try { process.kill(-Number(readFileSync(scriptPidFile, 'utf8')), 'SIGKILL'); } catch { /* already gone */ }
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('marks the interrupted task error on restart and keeps the lines written before the crash', async () => {
    const id = await startTaskOverHttp(port, 1, 1);
    await waitForTask(db, id, hasStatus('running'));
    const deadline = Date.now() + 10_000;
    while (!(await taskLog(db, id)).includes('before-crash-2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    server!.child.kill('SIGKILL');
    await new Promise((r) => server!.child.once('exit', r));
    expect((await waitForTask(db, id, () => true)).status).toBe('running');

    server = await startServer();
    const row = await waitForTask(db, id, undefined, 10_000);
    expect(row.status).toBe('error');
    expect(row.end).not.toBeNull();
    const log = await taskLog(db, id);
    expect(log).toEqual(expect.arrayContaining(['before-crash-1', 'before-crash-2']));
    expect(log.at(-1)).toMatch(/^Task interrupted: the server stopped while the task was running/);
  });
});
