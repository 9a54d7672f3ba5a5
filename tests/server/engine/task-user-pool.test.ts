import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, hasStatus, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { startGitDaemon } from '../../support/git-daemon.ts';
import { canCreateOsUsers } from '../../support/os-user.ts';
import { freeUidRange, removePoolAccounts } from '../../support/uid-pool.ts';
import { endProcessesOf } from '../../../src/server/engine/process/uid-leftovers.ts';

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - command: id -un
      register: who
    - debug:
        msg: "ansible-user={{ who.stdout }}"
`;

/** The first run holds on until the test lets it go (a file in its TMPDIR); every run prints who it is and where it works. */
const HOLD = `echo "uid=$(id -u) work=$PWD tmp=$TMPDIR"
i=0; while [ ! -e "$TMPDIR/go" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
echo done
`;

describe.runIf(canCreateOsUsers())('tasks from a uid pool (SEMAPHORE_PROCESS_UID_POOL)', () => {
  let e: EngineServer;
  let range: { first: number; last: number };
  let daemon: Awaited<ReturnType<typeof startGitDaemon>>;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;

  beforeAll(async () => {
    // one uid: a second task waits for it
    range = freeUidRange(1);
    e = await startEngineServer('sqlite', { SEMAPHORE_PROCESS_UID_POOL: `${range.first}-${range.last}` });
    chmodSync(e.s.tmp, 0o711);
    const served = join(e.s.tmp, 'served');
    createGitRepo(join(served, 'site.git'), { 'site.yml': PLAYBOOK, 'hold.sh': HOLD, 'term.sh': 'echo started\nsleep 600\necho survived-term\n' });
    daemon = await startGitDaemon(served);
    fixture = await insertProjectWithTemplate(e.s.deps.db, {
      ownerId: 1, app: 'ansible', playbook: 'site.yml', gitUrl: `${daemon.url}/site.git`,
      inventory: 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3',
    });
  }, 60_000);
  afterAll(async () => {
    daemon?.stop();
    await e?.close();
    if (range) removePoolAccounts(range);
  });

  const start = async (templateId: number) => {
    const res = await e.s.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_id: templateId }, e.admin);
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const lineOf = async (taskId: number, prefix: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const line = (await taskLog(e.s.deps.db, taskId)).find((l) => l.startsWith(prefix));
      if (line || Date.now() > deadline) return line ?? '';
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const fields = (line: string) => Object.fromEntries(line.split(' ').map((kv) => kv.split('=') as [string, string]));

  it('runs ansible-playbook against localhost as the pool account, its temporary folder in the account\'s home', async () => {
    const id = await start(fixture.template.id);
    const done = await waitForTask(e.s.deps.db, id, undefined, 90_000);
    const log = (await taskLog(e.s.deps.db, id)).join('\n');
    expect(done.status, log).toBe('success');
    expect(log).toContain(`"msg": "ansible-user=signalbox-task-${range.first}"`);
    expect(existsSync(join(e.s.config.tmp_path, `home_${range.first}`))).toBe(false);
  }, 120_000);

  it('stops a running task: the SIGTERM reaches its script inside its PID namespace', async () => {
    const template = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Term', playbook: 'term.sh', repository_id: fixture.repository.id });
    const id = await start(template.id);
    expect(await lineOf(id, 'started')).toBe('started');
    expect((await e.s.call('POST', `/api/project/${fixture.project.id}/tasks/${id}/stop`, {}, e.admin)).status).toBe(204);
    expect((await waitForTask(e.s.deps.db, id, undefined, 30_000)).status).toBe('stopped');
    expect(await taskLog(e.s.deps.db, id)).not.toContain('survived-term');
  }, 60_000);

  it('makes a task wait while every uid is in use, and a stop ends the wait', async () => {
    const holder = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Hold', playbook: 'hold.sh', repository_id: fixture.repository.id });
    const other = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Other', playbook: 'hold.sh', repository_id: fixture.repository.id });
    const third = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Third', playbook: 'hold.sh', repository_id: fixture.repository.id });
    const first = await start(holder.id);
    const held = fields(await lineOf(first, 'uid='));
    const waiting = await start(other.id);
    const stopped = await start(third.id);
    const waitLine = `Waiting for a free task user: all 1 uids of SEMAPHORE_PROCESS_UID_POOL are in use`;
    for (const id of [waiting, stopped]) expect(await lineOf(id, 'Waiting for a free task user')).toBe(waitLine);
    expect((await e.s.call('POST', `/api/project/${fixture.project.id}/tasks/${stopped}/stop`, {}, e.admin)).status).toBe(204);
    expect((await waitForTask(e.s.deps.db, stopped, hasStatus('stopped'), 30_000)).status).toBe('stopped');
    writeFileSync(join(held.tmp!, 'go'), '');
    expect((await waitForTask(e.s.deps.db, first, undefined, 60_000)).status).toBe('success');
    const next = fields(await lineOf(waiting, 'uid='));
    expect(next.uid).toBe(held.uid);
    writeFileSync(join(next.tmp!, 'go'), '');
    expect((await waitForTask(e.s.deps.db, waiting, undefined, 60_000)).status).toBe('success');
  }, 180_000);
});

describe.runIf(canCreateOsUsers())('parallel runs of one template, each with a uid of its own', () => {
  let e: EngineServer;
  let range: { first: number; last: number };
  let daemon: Awaited<ReturnType<typeof startGitDaemon>>;

  beforeAll(async () => {
    range = freeUidRange(2);
    e = await startEngineServer('sqlite', { SEMAPHORE_PROCESS_UID_POOL: `${range.first}-${range.last}` });
    chmodSync(e.s.tmp, 0o711);
    createGitRepo(join(e.s.tmp, 'served', 'site.git'), { 'hold.sh': HOLD });
    daemon = await startGitDaemon(join(e.s.tmp, 'served'));
  }, 60_000);
  afterAll(async () => {
    daemon?.stop();
    await e?.close();
    if (range) removePoolAccounts(range);
  });

  it('gives each run, each with its own uid, a working copy of its own, and removes both afterwards', async () => {
    const { project, template } = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, playbook: 'hold.sh', gitUrl: `${daemon.url}/site.git` });
    await e.s.deps.db.updateTable('template').set({ allow_parallel_tasks: 1 }).where('id', '=', template.id).execute();
    const ids: number[] = [];
    const runs: Record<string, string>[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await e.s.call('POST', `/api/project/${project.id}/tasks`, { template_id: template.id }, e.admin);
      ids.push(res.body.id);
      const deadline = Date.now() + 60_000;
      let line: string | undefined;
      while (!line && Date.now() < deadline) {
        line = (await taskLog(e.s.deps.db, res.body.id)).find((l) => l.startsWith('uid='));
        if (!line) await new Promise((r) => setTimeout(r, 100));
      }
      runs.push(Object.fromEntries(line!.split(' ').map((kv) => kv.split('=') as [string, string])));
    }
    const own = ids.map((id) => join(e.s.config.tmp_path, `repository_${template.repository_id}_task_${id}`));
    expect(runs.map((r) => r.work)).toEqual(own);
    expect(runs[0]!.uid).not.toBe(runs[1]!.uid);
    for (const run of runs) writeFileSync(join(run.tmp!, 'go'), '');
    for (const id of ids) expect((await waitForTask(e.s.deps.db, id, undefined, 60_000)).status).toBe('success');
    for (const dir of own) expect(existsSync(dir)).toBe(false);
  }, 120_000);

  it('ends a process of a pool uid that escaped its run (endProcessesOf)', async () => {
    const orphan = spawn('sleep', ['600'], { uid: range.last, gid: range.last, detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => orphan.once('exit', (_code, signal) => resolve(signal)));
    await endProcessesOf(range.last, range.last);
    expect(await exited).toBe('SIGKILL');
  });
});
