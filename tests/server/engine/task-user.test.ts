import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { canCreateOsUsers, createOsUser, type OsUser } from '../../support/os-user.ts';
import { chownTree } from '../../../src/server/engine/process/task-user.ts';

/** Prints what the task can see; every probe that must fail prints "<name>=denied". */
const probe = (paths: Record<string, string>) => [
  'echo "uid=$(id -u) gid=$(id -g) groups=$(id -G)"',
  'echo "home=$HOME"',
  'echo "owner=$(stat -c %u .)"',
  ...Object.entries(paths).map(([name, path]) => `cat -- '${path}' >/dev/null 2>&1 && echo "${name}=readable" || echo "${name}=denied"`),
  'ls -- "$(dirname "$PWD")" >/dev/null 2>&1 && echo "tmp-list=readable" || echo "tmp-list=denied"',
  'echo "secret=$API_SECRET"',
].join('\n');

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - command: id -u
      register: who
    - debug:
        msg: "ansible-uid={{ who.stdout }}"
    - command: cat {{ key_file }}
      register: key
      failed_when: false
    - debug:
        msg: "ansible-key-rc={{ key.rc }}"
`;

/** The first run (it makes the mark) waits in its working copy until the test drops go.flag there, then writes there; a second run only passes. */
const parallel = (marks: string) => `if mkdir -- '${marks}/slow' 2>/dev/null; then
  echo slow-started
  i=0; while [ ! -e go.flag ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
  echo late > written-late.txt && echo wrote-late
else
  echo quick
fi
`;

describe.runIf(canCreateOsUsers())('tasks run as the configured OS user (sqlite)', () => {
  let user: OsUser;
  let e: EngineServer;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let other: { id: number };
  let keyFile: string;
  let marks: string;
  const run = async (templateId: number) => {
    const res = await e.s.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_id: templateId }, e.admin);
    expect(res.status, res.text).toBe(201);
    const done = await waitForTask(e.s.deps.db, res.body.id, undefined, 90_000);
    return { done, log: await taskLog(e.s.deps.db, res.body.id) };
  };

  beforeAll(async () => {
    user = createOsUser();
    e = await startEngineServer('sqlite', { SEMAPHORE_PROCESS_USER: user.name });
    // the task user may pass through the test folder (as through /tmp) to reach tmp_path
    chmodSync(e.s.tmp, 0o711);
    const repoPath = join(e.s.tmp, 'repo');
    marks = join(e.s.tmp, 'marks');
    fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repoPath}`, playbook: 'probe.sh' });
    other = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Other', playbook: 'placeholder.sh', repository_id: fixture.repository.id });
    keyFile = `${e.s.config.db.host}.key`;
    mkdirSync(marks, { mode: 0o777 });
    chmodSync(marks, 0o777);
    createGitRepo(repoPath, {
      'placeholder.sh': 'echo other-task-file > left-behind.txt\n',
      'probe.sh': probe({ 'key-file': keyFile, database: e.s.config.db.host, wal: `${e.s.config.db.host}-wal` }),
      'site.yml': PLAYBOOK,
      'parallel.sh': parallel(marks),
    });
    // the source repository belongs to the task user, as git refuses to clone another user's
    chownTree(repoPath, user.uid, user.gid);
  }, 60_000);
  afterAll(async () => {
    await e?.close();
    user?.remove();
  });

  it('runs bash and ansible as that user: they succeed, but the key file and the database stay unreadable, and no working copy stays behind', async () => {
    const db = e.s.deps.db;
    const tmpPath = e.s.config.tmp_path;
    await insertEnvironmentSecret(db, e.s.deps.secrets, fixture.environment.id, fixture.project.id, 'var', 'API_SECRET', 'sekret-value-42');

    const first = await run(other.id);
    expect(first.done.status, first.log.join('\n')).toBe('success');
    // the run wrote into its own working copy, which went with it; without the object cache (the task user clones for itself)
    expect(existsSync(join(tmpPath, `repository_${fixture.repository.id}_task_${first.done.id}`))).toBe(false);
    expect(existsSync(join(tmpPath, `repository_${fixture.repository.id}_cache`))).toBe(false);

    const { done, log } = await run(fixture.template.id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log).toContain(`uid=${user.uid} gid=${user.gid} groups=${user.gid}`);
    expect(log).toContain(`owner=${user.uid}`);
    expect(log).toContain(`home=${join(tmpPath, `task_${done.id}`)}`);
    for (const name of ['key-file', 'database', 'wal', 'tmp-list']) expect(log).toContain(`${name}=denied`);
    // the secret reached the script through its environment, and the log masks it
    expect(log).toContain('secret=********');
    expect(log.join('\n')).not.toContain(readFileSync(keyFile, 'utf8').trim());

    const playbook = await insertTemplate(db, fixture.project.id, {
      name: 'Playbook', app: 'ansible', playbook: 'site.yml', repository_id: fixture.repository.id, inventory_id: fixture.inventory.id,
      environment_id: fixture.environment.id,
    });
    await db.updateTable('environment').set({ json: JSON.stringify({ key_file: keyFile }) }).where('id', '=', fixture.environment.id).execute();
    const ansible = await run(playbook.id);
    const text = ansible.log.join('\n');
    expect(ansible.done.status, text).toBe('success');
    expect(text).toContain(`ansible-uid=${user.uid}`);
    expect(text).toContain('ansible-key-rc=1');
  }, 180_000);

  it('runs the demo project\'s build as the task user, lending it the demo repository for the run only', async () => {
    const db = e.s.deps.db;
    const created = await e.s.call('POST', '/api/projects', { name: 'Demo', demo: true }, e.admin);
    expect(created.status, created.text).toBe(201);
    const build = await db.selectFrom('template').selectAll().where('project_id', '=', created.body.id).where('name', '=', 'Build').executeTakeFirstOrThrow();
    const repo = await db.selectFrom('repository').select('git_url').where('id', '=', build.repository_id!).executeTakeFirstOrThrow();
    const res = await e.s.call('POST', `/api/project/${created.body.id}/tasks`, { template_id: build.id }, e.admin);
    expect(res.status, res.text).toBe(201);
    const done = await waitForTask(db, res.body.id, undefined, 90_000);
    const log = await taskLog(db, res.body.id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log.some((l) => /^Built demo site version \S+ into build\/index.html$/.test(l)), log.join('\n')).toBe(true);
    await e.engine.idle(); // the build's success started "Deploy to Dev" (autorun) from the same repository
    expect(existsSync(join(e.s.config.tmp_path, `repository_${build.repository_id}_task_${done.id}`))).toBe(false);
    expect(statSync(repo.git_url.replace('file://', '')).uid).toBe(process.getuid!());
  }, 120_000);

  it('gives parallel runs of one template working copies of their own, each removed when its run ends', async () => {
    const db = e.s.deps.db;
    const template = await insertTemplate(db, fixture.project.id, { name: 'Parallel', playbook: 'parallel.sh', repository_id: fixture.repository.id, allow_parallel_tasks: 1 });
    const start = async () => (await e.s.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_id: template.id }, e.admin)).body.id as number;
    const slow = await start();
    const deadline = Date.now() + 60_000;
    while (!(await taskLog(db, slow)).includes('slow-started') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await taskLog(db, slow)).toContain('slow-started');
    const quick = await start();
    const quickDone = await waitForTask(db, quick, undefined, 60_000);
    expect(quickDone.status, (await taskLog(db, quick)).join('\n')).toBe('success');
    expect(await taskLog(db, quick)).toContain('quick');
    expect(existsSync(join(e.s.config.tmp_path, `repository_${fixture.repository.id}_task_${quick}`))).toBe(false);
    // the quick run has ended; the slow one still works in its own working copy, as the task user
    const own = join(e.s.config.tmp_path, `repository_${fixture.repository.id}_task_${slow}`);
    expect(statSync(own).uid).toBe(user.uid);
    writeFileSync(join(own, 'go.flag'), '');
    const slowDone = await waitForTask(db, slow, undefined, 60_000);
    const log = await taskLog(db, slow);
    expect(slowDone.status, log.join('\n')).toBe('success');
    expect(log).toContain('wrote-late');
    expect(existsSync(own)).toBe(false);
  }, 150_000);
});
