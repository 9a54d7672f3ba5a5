import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { ADMIN } from '../../support/harness.ts';
import { freePort, startServerProcess, type ServerProcess } from '../../support/server-process.ts';
import { startServerCluster, type ServerCluster } from '../../support/server-cluster.ts';
import { isPostgresReachable } from '../../support/dialects.ts';

/** Scripts that append their name to `marks`, so a node started twice shows up as two lines. */
function writeScripts(dir: string, marks: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of ['first', 'second', 'third']) writeFileSync(join(dir, `${name}.sh`), `echo ${name} >> '${marks}'\necho ${name} done\n`);
}

const marksOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await what();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met; last: ${JSON.stringify(last).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 50));
    last = await what();
  }
  return last;
}

async function fixtures(db: Db, scripts: string) {
  const fx = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'first.sh', templateName: 'First' });
  const more = { repository_id: fx.repository.id, inventory_id: fx.inventory.id };
  const second = await insertTemplate(db, fx.project.id, { name: 'Second', playbook: 'second.sh', ...more });
  const third = await insertTemplate(db, fx.project.id, { name: 'Third', playbook: 'third.sh', ...more });
  return { projectId: fx.project.id, first: fx.template.id, second: second.id, third: third.id };
}

/** first → delay → second → third */
const chain = (t: { first: number; second: number; third: number }, delay: number) => ({
  name: `Chain ${delay}`,
  nodes: [
    { id: 1, kind: 'task', name: 'first', template_id: t.first },
    { id: 2, kind: 'delay', name: 'wait', delay_seconds: delay },
    { id: 3, kind: 'task', name: 'second', template_id: t.second },
    { id: 4, kind: 'task', name: 'third', template_id: t.third },
  ],
  edges: [{ source_node_id: 1, destination_node_id: 2 }, { source_node_id: 2, destination_node_id: 3 }, { source_node_id: 3, destination_node_id: 4 }],
});

async function signIn(port: number): Promise<(method: string, path: string, body?: unknown) => Promise<any>> {
  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  return async (method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'content-type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

const runNodes = (db: Db, runId: number) => db.selectFrom('workflow_run_node').selectAll().where('run_id', '=', runId).orderBy('node_id').execute();
const runRow = (db: Db, runId: number) => db.selectFrom('workflow_run').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();

describe('a workflow run survives kill -9 of its server (sqlite, real process)', () => {
  let tmp: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess | null = null;
  let db: Db;
  let t: Awaited<ReturnType<typeof fixtures>>;
  let marks: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-wf-crash-'));
    port = await freePort();
    marks = join(tmp, 'marks');
    writeScripts(join(tmp, 'scripts'), marks);
    env = {
      ...process.env, SEMAPHORE_DB_DIALECT: 'sqlite', SEMAPHORE_DB_HOST: join(tmp, 'db.sqlite'), SEMAPHORE_PORT: String(port),
      SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password,
    };
    server = await startServerProcess(env, port);
    db = openDatabase({ dialect: 'sqlite', host: join(tmp, 'db.sqlite') });
    t = await fixtures(db, join(tmp, 'scripts'));
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('continues a run killed during a delay exactly once, with the time that was left', async () => {
    const api = await signIn(port);
    const wf = (await api('POST', `/api/project/${t.projectId}/workflows`, chain(t, 10))).body;
    const run = (await api('POST', `/api/project/${t.projectId}/workflows/${wf.id}/run`)).body;
    const delay = await until(() => runNodes(db, run.id), (rows) => rows.some((r) => r.kind === 'delay' && r.status === 'delay'));
    const due = new Date(delay.find((r) => r.kind === 'delay')!.due!).getTime();
    // killed 3 s into the 10 s delay: 7 s are left
    await until(async () => Date.now(), (t) => t >= due - 7000);

    server!.child.kill('SIGKILL');
    await new Promise((r) => server!.child.once('exit', r));
    server = await startServerProcess(env, port);
    const ready = Date.now();

    const done = await until(() => runRow(db, run.id), (r) => ['success', 'failed', 'stopped'].includes(r.status), 60_000);
    expect(done.status).toBe('success');
    expect(marksOf(marks)).toEqual(['first', 'second', 'third']);
    const rows = await runNodes(db, run.id);
    const second = rows.find((r) => r.kind === 'task' && r.node_id === wf.nodes[2].id)!;
    // the delay was not cut short, nor restarted from zero (that would end 10 s after the server
    // came back; with the 7 s that were left it ends at `due`, or at once when the restart took longer)
    expect(new Date(second.start).getTime()).toBeGreaterThanOrEqual(due - 5);
    expect(new Date(second.start).getTime()).toBeLessThan(Math.max(due, ready) + 2000);
    const tasks = await db.selectFrom('task').select(['template_id']).where('project_id', '=', t.projectId).execute();
    expect(tasks.filter((x) => x.template_id === t.second)).toHaveLength(1);
  }, 120_000);
});

describe.runIf(await isPostgresReachable())('a workflow on two servers sharing PostgreSQL (real processes)', () => {
  let cluster: ServerCluster;
  let t: Awaited<ReturnType<typeof fixtures>>;
  let marks: string;

  beforeAll(async () => {
    cluster = await startServerCluster(2, async (db, tmp) => {
      marks = join(tmp, 'marks');
      writeScripts(join(tmp, 'scripts'), marks);
      t = await fixtures(db, join(tmp, 'scripts'));
    });
  }, 180_000);
  afterAll(async () => { await cluster?.close(); });

  it('runs every node exactly once, whichever server ends each task, and the other server takes over a delay when the first is killed', async () => {
    const api = await signIn(cluster.nodes[0]!.port);
    // long enough that every run is still in its delay when the first server dies: a task that
    // server was running would wait for the stale-engine recovery instead
    const wf = (await api('POST', `/api/project/${t.projectId}/workflows`, chain(t, 8))).body;
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push((await api('POST', `/api/project/${t.projectId}/workflows/${wf.id}/run`)).body.id);
    await until(async () => Promise.all(runs.map((id) => runNodes(cluster.db, id))), (all) => all.every((rows) => rows.some((r) => r.kind === 'delay' && r.status === 'delay')));

    const killed = cluster.nodes[0]!.process.child;
    killed.kill('SIGKILL');
    await new Promise((r) => killed.once('exit', r));
    // (close() waits for an exit it would never hear again)
    cluster.nodes.splice(0, 1);
    const ended = await until(async () => Promise.all(runs.map((id) => runRow(cluster.db, id))), (rows) => rows.every((r) => r.status !== 'running' && r.status !== 'approval'), 90_000)
      .catch(async (err) => {
        const nodes = await cluster.db.selectFrom('workflow_run_node').select(['run_id', 'node_id', 'status', 'task_id', 'due']).execute();
        const tasks = await cluster.db.selectFrom('task').select(['id', 'status', 'locked_by']).execute();
        throw new Error(`${JSON.stringify(nodes)} ${JSON.stringify(tasks)} ${Date.now()} ${cluster.nodes[0]!.process.output().slice(-1500)}`, { cause: err });
      });
    expect(ended.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    const lines = marksOf(marks);
    for (const name of ['first', 'second', 'third']) expect(lines.filter((l) => l === name)).toHaveLength(3);
    for (const id of runs) {
      const rows = await runNodes(cluster.db, id);
      expect(rows.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success']);
    }
  }, 180_000);
});
