import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { listenOnLoopback } from '../../support/listen.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { enqueueTask } from '../../../src/server/domain/tasks/enqueue-task.ts';
import { commitOnBranch, createGitRepo } from '../../support/git-repo.ts';
import { now } from '../../../src/server/lib/time.ts';
import { hostFactsOf } from '../../../src/server/domain/tasks/host-facts.ts';
import { insertLocalAnsibleTemplate } from '../../support/local-ansible.ts';
import { insertStartingTask, registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../../support/runner-process.ts';

const REGISTRATION = 'registration-secret-7c1e';

/**
 * Real runner processes on loopback against a server with short runner timeouts (offline 5 s,
 * fail 8 s): registration, tagged and untagged tasks, waiting with a reason, kill -9 mid-task,
 * a starting task reassigned, and a restarted runner that does not run a task twice.
 */
describe('remote runner processes', () => {
  let srv: EngineServer;
  let stopHttp: () => Promise<void>;
  let url: string;
  let dir: string;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  const runners: Record<'plain' | 'gpu', { env: Record<string, string>; id: number; proc?: RunnerChild }> = {} as never;

  const template = (name: string, script: string, tag: string | null) => {
    writeFileSync(join(dir, 'repo', `${name}.sh`), script, { mode: 0o755 });
    return insertTemplate(srv.s.deps.db, fixture.project.id, {
      name, playbook: `${name}.sh`, repository_id: fixture.repository.id, inventory_id: fixture.inventory.id, environment_id: fixture.environment.id, runner_tag: tag,
    });
  };
  const queue = async (templateId: number) => (await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId, userId: null } as never)).id;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signalbox-runners-'));
    mkdirSync(join(dir, 'repo'));
    srv = await startEngineServer('sqlite', {
      SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SIGNALBOX_RUNNER_OFFLINE_SEC: '5', SIGNALBOX_RUNNER_FAIL_SEC: '8', SIGNALBOX_RUNNER_POLL_HOLD_MS: '5000',
    });
    stopHttp = await listenOnLoopback(srv.s);
    url = srv.s.config.web_host;
    fixture = await insertProjectWithTemplate(srv.s.deps.db, { ownerId: 1, gitUrl: join(dir, 'repo') });
    await insertEnvironmentSecret(srv.s.deps.db, srv.s.deps.secrets, fixture.environment.id, fixture.project.id, 'env', 'SECRET_WORD', 'hush-hush-42');
    for (const name of ['plain', 'gpu'] as const) {
      const env = runnerEnv(url, join(dir, name), { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION });
      await registerRunner(env, ['--name', `runner-${name}`, ...(name === 'gpu' ? ['--tags', 'gpu'] : [])]);
      const { id } = await srv.s.deps.db.selectFrom('runner').select('id').where('name', '=', `runner-${name}`).executeTakeFirstOrThrow();
      runners[name] = { env, id, proc: startRunner(env) };
    }
    for (const r of Object.values(runners)) await until('the runner polling', async () => r.proc!.output().includes('runner started'), 90_000);
  }, 180_000);

  afterAll(async () => {
    await stopRunner(runners.plain?.proc);
    await stopRunner(runners.gpu?.proc);
    await stopHttp?.();
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers with the registration token: tags, a token file, a key that never left the runner', async () => {
    const rows = await srv.s.call('GET', '/api/runners', undefined, srv.admin);
    expect(rows.status).toBe(200);
    expect(rows.body.map((r: { name: string; tags: string[]; registered: boolean }) => [r.name, r.tags, r.registered])).toEqual([
      ['runner-plain', [], true], ['runner-gpu', ['gpu'], true],
    ]);
    const token = readFileSync(join(dir, 'gpu', 'runner.token'), 'utf8');
    expect(token).toMatch(/^[A-Za-z0-9+/=]{44}$/);
    expect(rows.text).not.toContain(token);
    expect(readFileSync(join(dir, 'gpu', 'runner.token.key'), 'utf8')).toContain('PRIVATE KEY');
    const tags = await srv.s.call('GET', '/api/runner_tags', undefined, srv.admin);
    expect(tags.body).toEqual([{ tag: 'gpu', number_of_runners: 1 }]);
  });

  it('a tagged task runs on the runner with the tag, its secrets sealed to that runner, output streamed back', async () => {
    const t = await template('tagged', 'echo "on runner: $SECRET_WORD"', 'gpu');
    const id = await queue(t.id);
    const done = await waitForTask(srv.s.deps.db, id);
    const log = await taskLog(srv.s.deps.db, id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(done.runner_id).toBe(runners.gpu.id);
    expect(log).toContain(`Task handed to runner #${runners.gpu.id} (runner-gpu)`);
    expect(readFileSync(join(dir, 'gpu', 'work', 'runner-started-tasks.txt'), 'utf8').split('\n')).toContain(String(id));
    // the secret reached the runner (it is masked in the output it sent back)
    expect(log).toContain('on runner: ********');
  }, 30_000);

  it('a task on a runner checks out into a working copy of its own, cloned from the runner\'s object cache, and removes it', async () => {
    const gitRepo = createGitRepo(join(dir, 'git-repo'), { 'which.txt': 'main-content\n', 'show.sh': 'echo "file=$(cat which.txt)"; echo "dir=$PWD"; echo "alternates=$(cat .git/objects/info/alternates)"\n' });
    commitOnBranch(gitRepo.path, 'feature', { 'which.txt': 'feature-content\n' }, 'Feature');
    const repo = await srv.s.deps.db.insertInto('repository').values({ project_id: fixture.project.id, name: 'Git', git_url: `file://${gitRepo.path}`, git_branch: 'main', ssh_key_id: fixture.key.id })
      .returning('id').executeTakeFirstOrThrow();
    const t = await insertTemplate(srv.s.deps.db, fixture.project.id, { name: 'on git', playbook: 'show.sh', repository_id: repo.id, runner_tag: 'gpu', allow_override_branch_in_task: 1 });
    const work = join(dir, 'gpu', 'work');
    const cache = join(work, `repository_${repo.id}_cache`);
    for (const branch of ['main', 'feature']) {
      const id = (await enqueueTask(srv.s.deps, { projectId: fixture.project.id, templateId: t.id, userId: null, gitBranch: branch })).id;
      const done = await waitForTask(srv.s.deps.db, id);
      const log = await taskLog(srv.s.deps.db, id);
      expect([done.status, done.runner_id], log.join('\n')).toEqual(['success', runners.gpu.id]);
      expect(log).toContain(`file=${branch}-content`);
      expect(log).toContain(`dir=${join(work, `repository_${repo.id}_task_${id}`)}`);
      expect(log).toContain(`alternates=${join(cache, 'objects')}`);
      if (branch === 'feature') expect(log).toContain(`Using the object cache of repository file://${gitRepo.path}`);
      expect(existsSync(join(work, `repository_${repo.id}_task_${id}`))).toBe(false);
    }
  }, 60_000);

  it('a task on a runner gathers host facts with real ansible-playbook; the runner reports them and the server stores them', async () => {
    const gather = '- hosts: all\n  gather_facts: true\n  tasks:\n    - debug: { msg: "{{ ansible_distribution }}" }\n';
    const { templateId } = await insertLocalAnsibleTemplate(srv.s.deps.db, fixture.project.id, join(dir, 'facts-repo'), { 'site.yml': gather }, { name: 'gather on runner', runner_tag: 'gpu' });
    const id = await queue(templateId);
    const done = await waitForTask(srv.s.deps.db, id, undefined, 120_000);
    expect([done.status, done.runner_id], (await taskLog(srv.s.deps.db, id)).join('\n')).toEqual(['success', runners.gpu.id]);
    const facts = (await hostFactsOf(srv.s.deps.db, fixture.project.id)).get('localhost');
    expect(facts).toMatchObject({ task_id: id, distribution: expect.stringMatching(/\S/), hostname: expect.stringMatching(/\S/) });
  }, 150_000);

  it('stop and force stop reach the job on the runner', async () => {
    const t = await template('stoppable', 'echo started-stoppable; sleep 30', 'gpu');
    for (const force of [false, true]) {
      const id = await queue(t.id);
      await until('the task running on the runner', async () => (await taskLog(srv.s.deps.db, id)).includes('started-stoppable'), 60_000);
      const res = await srv.s.call('POST', `/api/project/${fixture.project.id}/tasks/${id}/stop`, { force }, srv.admin);
      expect(res.status).toBe(204);
      const ended = await waitForTask(srv.s.deps.db, id, undefined, 20_000);
      expect([force, ended.status]).toEqual([force, 'stopped']);
      expect(ended.runner_id).toBe(runners.gpu.id);
    }
  }, 90_000);

  it('an untagged task stays local unless use_remote_runner is on, then goes to a runner', async () => {
    const t = await template('untagged', 'echo untagged ran', null);
    const local = await waitForTask(srv.s.deps.db, await queue(t.id));
    expect([local.status, local.runner_id]).toEqual(['success', null]);
    srv.s.config.use_remote_runner = true;
    try {
      const remote = await waitForTask(srv.s.deps.db, await queue(t.id));
      expect(remote.status).toBe('success');
      expect([runners.plain.id, runners.gpu.id]).toContain(remote.runner_id);
    } finally {
      srv.s.config.use_remote_runner = false;
    }
  }, 30_000);

  it('a task no runner can take waits, with a log line saying why', async () => {
    const t = await template('nobody', 'echo never', 'nobody-has-this');
    const id = await queue(t.id);
    await until('the waiting line', async () => (await taskLog(srv.s.deps.db, id)).includes('Waiting for a runner: no active runner with the tag "nobody-has-this" is online'));
    const row = await srv.s.deps.db.selectFrom('task').select(['status', 'runner_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'waiting', runner_id: null });
    await srv.s.deps.db.updateTable('task').set({ status: 'stopped', end: now() }).where('id', '=', id).execute();
  }, 30_000);

  it('kill -9 of a runner mid-task: the task fails after the timeout with a log line; a task starting on it goes to another runner', async () => {
    const t = await template('long', 'echo started-long; sleep 20', 'gpu');
    const id = await queue(t.id);
    await until('the task running on the gpu runner', async () => (await taskLog(srv.s.deps.db, id)).includes('started-long'));
    await stopRunner(runners.gpu.proc);
    // a task the dead runner had been handed but not started
    const quick = await template('quick', 'echo reassigned ok', null);
    const starting = await insertStartingTask(srv.s.deps.db, fixture.project.id, quick.id, runners.gpu.id);
    srv.s.config.use_remote_runner = true;
    try {
      const failed = await waitForTask(srv.s.deps.db, id, undefined, 15_000);
      const log = await taskLog(srv.s.deps.db, id);
      expect(failed.status).toBe('error');
      expect(log).toContain(`Runner #${runners.gpu.id} has not been in contact for 8 seconds; the task failed`);
      const moved = await waitForTask(srv.s.deps.db, starting, undefined, 15_000);
      const movedLog = await taskLog(srv.s.deps.db, starting);
      expect(movedLog).toContain(`Runner #${runners.gpu.id} went offline before starting the task; the task goes back to the queue`);
      expect([moved.status, moved.runner_id]).toEqual(['success', runners.plain.id]);
      expect(movedLog).toContain('reassigned ok');
    } finally {
      srv.s.config.use_remote_runner = false;
    }
  }, 40_000);

  it('a runner restarted mid-task does not run the task again', async () => {
    const counter = join(dir, 'runs.txt');
    const t = await template('once', `echo run >> ${counter}; echo started-once; sleep 15`, 'gpu');
    await stopRunner(runners.gpu.proc);
    runners.gpu.proc = startRunner(runners.gpu.env);
    const id = await queue(t.id);
    await until('the task running', async () => (await taskLog(srv.s.deps.db, id)).includes('started-once'), 60_000);
    // the new process is up (slow machines take seconds) before the old one dies mid-task
    const old = runners.gpu.proc;
    runners.gpu.proc = startRunner(runners.gpu.env);
    await until('the new runner process', async () => runners.gpu.proc!.output().includes('runner started'), 60_000);
    await stopRunner(old);
    const ended = await waitForTask(srv.s.deps.db, id, undefined, 15_000);
    const log = await taskLog(srv.s.deps.db, id);
    expect(ended.status, `${log.join('\n')}\nOLD:${old.output()}\nNEW:${runners.gpu.proc?.output()}`).toBe('error');
    expect(log, log.join('\n') + runners.gpu.proc?.output()).toContain('The runner restarted while the task was running; it is not run again');
    await new Promise((r) => setTimeout(r, 500));
    expect(readFileSync(counter, 'utf8')).toBe('run\n');
  }, 120_000);

  it('tokens and private keys never reach the server log or later answers', async () => {
    const token = readFileSync(join(dir, 'plain', 'runner.token'), 'utf8');
    const key = readFileSync(join(dir, 'plain', 'runner.token.key'), 'utf8');
    const answers = [await srv.s.call('GET', '/api/runners', undefined, srv.admin), await srv.s.call('GET', `/api/runners/${runners.plain.id}`, undefined, srv.admin)];
    for (const a of answers) {
      expect(a.text).not.toContain(token);
      expect(a.text).not.toContain('PRIVATE KEY');
    }
    const row = await srv.s.deps.db.selectFrom('runner').selectAll().where('id', '=', runners.plain.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(key.split('\n')[1]);
    for (const r of [runners.plain.proc, runners.gpu.proc]) {
      expect(r?.output() ?? '').not.toContain(token);
      expect(r?.output() ?? '').not.toContain(key.split('\n')[1]);
    }
  });
});
