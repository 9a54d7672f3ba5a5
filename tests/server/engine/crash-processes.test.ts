import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { groupHasLiveMembers } from '../../../src/server/engine/queue/task-processes.ts';
import { isProcessAlive } from '../../../src/server/engine/queue/this-machine.ts';
import { STALE_AFTER_MS } from '../../../src/server/engine/queue/engine-workers.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { taskLog, waitForTask, hasStatus } from '../../support/engine.ts';
import { ADMIN } from '../../support/harness.ts';
import { freePort, startServerProcess, startTaskOverHttp, type ServerProcess } from '../../support/server-process.ts';
import { spawn } from 'node:child_process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a zombie counts as dead', () => {
  it('reports an exited but unreaped process as not alive, though kill(pid, 0) still finds it', async () => {
    const parent = spawn('bash', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d) => resolve(String(d)))));
    await sleep(500);
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(parent.pid!)).toBe(true);
    parent.kill('SIGKILL');
  });
});

describe('after a kill -9 of the server nothing keeps running and nothing is stored twice (sqlite)', () => {
  let tmp: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let db: Db;
  let sideEffect: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-crash2-'));
    port = await freePort();
    sideEffect = join(tmp, 'side-effect');
    const scripts = join(tmp, 'scripts');
    mkdirSync(scripts);
    // the background part shares the task's process group and outlives its parent
    writeFileSync(join(scripts, 'late.sh'), `(sleep 20; touch ${sideEffect}) &\necho started\nwait\n`);
    writeFileSync(join(scripts, 'count.sh'), 'seq 1 5000000\n');
    env = {
      ...process.env, SEMAPHORE_DB_DIALECT: 'sqlite', SEMAPHORE_DB_HOST: join(tmp, 'db.sqlite'), SEMAPHORE_PORT: String(port),
      SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password,
    };
    servers.push(await startServerProcess(env, port, { zombieParent: true }));
    db = openDatabase({ dialect: 'sqlite', host: join(tmp, 'db.sqlite') });
    const f = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'late.sh' });
    await insertTemplate(db, f.project.id, { name: 'Count', playbook: 'count.sh', repository_id: f.repository.id });
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('ends the group the task left running before marking it error, at once on a restart beside the zombie', async () => {
    const id = await startTaskOverHttp(port, 1, 1);
    await waitForTask(db, id, hasStatus('running'));
    while (!(await taskLog(db, id)).includes('started')) await sleep(50);
    const { process_group: pgid } = await waitForTask(db, id, (t) => t.process_group !== null);

    process.kill(servers[0]!.pid, 'SIGKILL');
    await sleep(300);
    expect(() => process.kill(servers[0]!.pid, 0)).not.toThrow(); // still a zombie
    expect(isProcessAlive(servers[0]!.pid)).toBe(false);
    // setpriv --pdeathsig took the script's main process down with the server; its background part lives on
    expect(isProcessAlive(pgid!)).toBe(false);
    expect(groupHasLiveMembers(pgid!, id)).toBe(true);

    servers.push(await startServerProcess(env, port));
    const answeredAt = Date.now();
    // "at once": by the restart's own recovery, not the periodic one (every STALE_AFTER_MS / 2);
    // any shorter bound is a timing test, and a loaded machine once took longer than 5 s here
    const row = await waitForTask(db, id, hasStatus('error'), STALE_AFTER_MS / 2);
    expect(Date.now() - answeredAt).toBeLessThan(STALE_AFTER_MS / 2);
    expect(groupHasLiveMembers(pgid!, id)).toBe(false);
    const log = await taskLog(db, id);
    expect(log.join('\n')).toContain(`its processes (group ${pgid}) were still running after the server stopped; they were ended`);
    expect(row.end).not.toBeNull();
    expect(existsSync(sideEffect)).toBe(false);
  }, 90_000);

  it('keeps the output stored before the crash contiguous, with no line twice', async () => {
    const id = await startTaskOverHttp(port, 1, 2);
    const count = async () => Number((await db.selectFrom('task_output').select((eb) => eb.fn.countAll().as('n')).where('task_id', '=', id).executeTakeFirstOrThrow()).n);
    const deadline = Date.now() + 30_000;
    while ((await count()) < 20_000 && Date.now() < deadline) await sleep(50);
    servers.at(-1)!.child.kill('SIGKILL');
    await new Promise((r) => servers.at(-1)!.child.once('exit', r));
    servers.push(await startServerProcess(env, port));
    await waitForTask(db, id, hasStatus('error'), 5000);
    const numbers = (await taskLog(db, id)).filter((l) => /^\d+$/.test(l)).map(Number);
    expect(numbers.length).toBeGreaterThanOrEqual(20_000);
    expect(numbers.every((n, i) => n === i + 1)).toBe(true);
  }, 90_000);
});
