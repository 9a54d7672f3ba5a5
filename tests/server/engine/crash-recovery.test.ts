import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { taskLog, waitForTask, hasStatus } from '../../support/engine.ts';
import { ADMIN } from '../../support/harness.ts';

const ROOT = join(import.meta.dirname, '../../..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe('crash recovery with a real server process (sqlite)', () => {
  let tmp: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess | null = null;
  let db: Db;
  let scriptPidFile: string;

  const startServer = async () => {
    const child = spawn(process.execPath, [join(ROOT, 'src/server/cli/main.ts'), 'server'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => { output += d; });
    child.stderr!.on('data', (d) => { output += d; });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/ping`).then((r) => r.ok, () => false);
      if (ok) return child;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not start: ${output}`);
  };

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
    server?.kill('SIGKILL');
    try { process.kill(-Number(readFileSync(scriptPidFile, 'utf8')), 'SIGKILL'); } catch { /* already gone */ }
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('marks the interrupted task error on restart and keeps the lines written before the crash', async () => {
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const created = await fetch(`http://127.0.0.1:${port}/api/project/1/tasks`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ template_id: 1 }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await waitForTask(db, id, hasStatus('running'));
    const deadline = Date.now() + 10_000;
    while (!(await taskLog(db, id)).includes('before-crash-2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    server!.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
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
