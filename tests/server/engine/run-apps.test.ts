import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, hasStatus, type EngineServer } from '../../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { commitFiles, commitOnBranch, createGitRepo } from '../../support/git-repo.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';
import { STOP_GRACE_MS } from '../../../src/server/engine/process/run-process.ts';

const SCRIPT = [
  'echo "hello from script"',
  'echo "args: $*"',
  'echo "GROUP_ENV=$GROUP_ENV"',
  'echo "SECRET_ENV=$SECRET_ENV"',
  'echo "TASK_ID=$SEMAPHORE_TASK_DETAILS_ID"',
  'echo "CONFIG_ENV=$FROM_CONFIG"',
].join('\n');

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - name: show the variables
      debug:
        msg: "greeting={{ greeting }} secret={{ api_token }} task={{ semaphore_vars.task_details.id }} env={{ lookup('env', 'GROUP_ENV') }}"
`;

describe('running real tasks (sqlite)', () => {
  let e: EngineServer;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let repo: { path: string; hash: string };
  let tfLog: string;
  const base = () => `/api/project/${fixture.project.id}`;
  const run = async (body: Record<string, unknown>) => {
    const res = await e.s.call('POST', `${base()}/tasks`, body, e.admin);
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number };
  };

  beforeAll(async () => {
    process.env.PATH = `${join(import.meta.dirname, '../../fakes')}:${process.env.PATH}`;
    const tmpForLog = join(process.env.TMPDIR ?? '/tmp', `tf-${process.pid}-${Date.now()}.log`);
    tfLog = tmpForLog;
    e = await startEngineServer('sqlite', { SEMAPHORE_ENV_VARS: JSON.stringify({ FROM_CONFIG: 'cfg', FAKE_TF_LOG: tfLog }) });
    repo = createGitRepo(join(e.s.tmp, 'repo'), {
      'run.sh': SCRIPT,
      'fail.sh': 'echo "about to fail"\nexit 3\n',
      'sleep.sh': 'echo sleeping\nsleep 600\n',
      'stubborn.sh': 'trap "echo ignoring TERM" TERM\necho stubborn\nwhile true; do sleep 0.2; done\n',
      'site.yml': PLAYBOOK,
      'requirements.yml': 'collections: []\nroles: []\n',
      'infra/main.tf': '# nothing\n',
    }, 'Add scripts and playbook');
    fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, playbook: 'run.sh' });
    await e.s.deps.db.updateTable('environment').set({ json: JSON.stringify({ region: 'eu', greeting: 'from-group' }), env: JSON.stringify({ GROUP_ENV: 'group-value' }) })
      .where('id', '=', fixture.environment.id).execute();
    await insertEnvironmentSecret(e.s.deps.db, e.s.deps.secrets, fixture.environment.id, fixture.project.id, 'env', 'SECRET_ENV', 'env-secret-value');
  });
  afterAll(async () => { await e.close(); });

  it('clones the repository, runs a bash script with extra vars and env vars, and records the commit', async () => {
    const task = await run({ template_id: fixture.template.id, environment: JSON.stringify({ region: 'us' }), message: 'first run' });
    const done = await waitForTask(e.s.deps.db, task.id);
    const log = await taskLog(e.s.deps.db, task.id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log).toContain('hello from script');
    expect(log.find((l) => l.startsWith('args: '))).toMatch(/region=us/);
    expect(log.find((l) => l.startsWith('args: '))).toMatch(/greeting=from-group/);
    expect(log).toContain('GROUP_ENV=group-value');
    // the script printed the secret; the stored log shows it masked
    expect(log).toContain('SECRET_ENV=********');
    expect(log.join('\n')).not.toContain('env-secret-value');
    expect(log).toContain(`TASK_ID=${task.id}`);
    expect(log).toContain('CONFIG_ENV=cfg');
    expect(done.commit_hash).toBe(repo.hash);
    expect(done.commit_message).toBe('Add scripts and playbook');
    expect(done.start).not.toBeNull();
    expect(done.end).not.toBeNull();
    // the run's working copy went with it; the repository's object cache stays for the next run
    expect(existsSync(join(e.s.config.tmp_path, `repository_${fixture.repository.id}_task_${task.id}`))).toBe(false);
    expect(existsSync(join(e.s.config.tmp_path, `repository_${fixture.repository.id}_cache`, 'HEAD'))).toBe(true);
    await settleAuditInbox(e.s.deps.db);
    const events = await e.s.deps.db.selectFrom('event').select('description').where('object_id', '=', task.id).where('object_type', '=', 'task').execute();
    expect(events.map((ev) => ev.description)).toEqual(expect.arrayContaining([
      `Task ID ${task.id} queued for running`, `Task ID ${task.id} (Fixture template) is running`, `Task ID ${task.id} (Fixture template) finished - SUCCESS`,
    ]));
  });

  it('runs an ansible playbook against localhost with extra vars and a survey secret that is never stored', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, {
      name: 'Playbook', app: 'ansible', playbook: 'site.yml', repository_id: fixture.repository.id, inventory_id: fixture.inventory.id,
      environment_id: fixture.environment.id, survey_vars: JSON.stringify([{ name: 'api_token', title: 'API token', type: 'secret', required: true }]),
    });
    const task = await run({ template_id: tpl.id, environment: JSON.stringify({ greeting: 'hello' }), secret: JSON.stringify({ api_token: 'tok-123' }) });
    const done = await waitForTask(e.s.deps.db, task.id, undefined, 90_000);
    const log = await taskLog(e.s.deps.db, task.id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log.join('\n')).toContain(`greeting=hello secret=******** task=${task.id} env=group-value`);
    expect(log.join('\n')).not.toContain('tok-123');
    expect(done.commit_hash).toBe(repo.hash);
    const row = await e.s.deps.db.selectFrom('task').select(['environment', 'params']).where('id', '=', task.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('tok-123');
    expect(readdirSync(e.s.config.tmp_path).filter((f) => f.startsWith(`inventory_${task.id}`) || f.startsWith(`secrets_${task.id}`))).toEqual([]);
    expect(log).toContain('Skipping install, no requirements found');
    expect(log).toContain('No collections/requirements.yml file found. Skip galaxy collection install process.');

    const again = await run({ template_id: tpl.id, environment: JSON.stringify({ greeting: 'again' }), secret: JSON.stringify({ api_token: 'tok-456' }) });
    expect((await waitForTask(e.s.deps.db, again.id, undefined, 90_000)).status).toBe('success');
    const secondLog = await taskLog(e.s.deps.db, again.id);
    // each run installs into galaxy folders of its own, so the second installs again
    expect(secondLog).toContain('Skipping install, no requirements found');
    expect(secondLog.join('\n')).not.toContain('has not changed');
  }, 120_000);

  it('ends a failing script as error with its output and the reason', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Fails', playbook: 'fail.sh', repository_id: fixture.repository.id });
    const task = await run({ template_id: tpl.id });
    const done = await waitForTask(e.s.deps.db, task.id);
    const log = await taskLog(e.s.deps.db, task.id);
    expect(done.status).toBe('error');
    expect(log).toContain('about to fail');
    expect(log.join('\n')).toMatch(/Running app failed: bash exited with code 3/);
  });

  it('stops a sleep 600 task on the stop request, before the grace period runs out', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Sleeps', playbook: 'sleep.sh', repository_id: fixture.repository.id });
    const task = await run({ template_id: tpl.id });
    await waitForLogLine(task.id, 'sleeping');
    const asked = Date.now();
    expect((await e.s.call('POST', `${base()}/tasks/${task.id}/stop`, {}, e.admin)).status).toBe(204);
    const done = await waitForTask(e.s.deps.db, task.id);
    expect(done.status).toBe('stopped');
    // SIGTERM ended it, without the grace period's SIGKILL
    expect(Date.now() - asked).toBeLessThan(STOP_GRACE_MS);
  });

  it('force-stops a process that ignores SIGTERM', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Stubborn', playbook: 'stubborn.sh', repository_id: fixture.repository.id });
    const task = await run({ template_id: tpl.id });
    await waitForLogLine(task.id, 'stubborn');
    await e.s.call('POST', `${base()}/tasks/${task.id}/stop`, { force: false }, e.admin);
    await waitForLogLine(task.id, 'ignoring TERM');
    expect((await e.s.deps.db.selectFrom('task').select('status').where('id', '=', task.id).executeTakeFirstOrThrow()).status).toBe('stopping');
    const asked = Date.now();
    expect((await e.s.call('POST', `${base()}/tasks/${task.id}/stop`, { force: true }, e.admin)).status).toBe(204);
    const done = await waitForTask(e.s.deps.db, task.id);
    expect(done.status).toBe('stopped');
    await e.engine.idle();
    // killed at once, not after the grace period
    expect(Date.now() - asked).toBeLessThan(STOP_GRACE_MS);
  });

  for (const app of ['terraform', 'tofu'] as const) {
    it(`${app}: plans, waits for confirmation, applies after confirm`, async () => {
      const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, {
        name: `${app} apply`, app, playbook: 'infra', repository_id: fixture.repository.id, environment_id: fixture.environment.id,
      });
      const task = await run({ template_id: tpl.id });
      await waitForTask(e.s.deps.db, task.id, hasStatus('waiting_confirmation'));
      expect((await e.s.call('POST', `${base()}/tasks/${task.id}/confirm`, undefined, e.admin)).status).toBe(204);
      const done = await waitForTask(e.s.deps.db, task.id);
      const log = await taskLog(e.s.deps.db, task.id);
      expect(done.status, log.join('\n')).toBe('success');
      expect(log).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      const calls = readFileSync(tfLog, 'utf8').trim().split('\n').slice(-4);
      expect(calls[0]).toMatch(new RegExp(`^${app} init -input=false`));
      expect(calls[1]).toBe(`${app} workspace select -or-create=true default`);
      expect(calls[2]).toMatch(new RegExp(`^${app} plan -input=false .*-var-file=/\\S+\\.tfvars\\.json`));
      const varFile = log.find((line) => line.startsWith('var-file: '));
      expect(JSON.parse(varFile!.slice('var-file: '.length))).toMatchObject({ region: 'eu' });
      expect(calls[3]).toMatch(new RegExp(`^${app} apply -auto-approve -input=false`));
    });
  }

  it('terraform: a rejected plan ends rejected without apply', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'tf reject', app: 'terraform', playbook: 'infra', repository_id: fixture.repository.id });
    const task = await run({ template_id: tpl.id });
    await waitForTask(e.s.deps.db, task.id, hasStatus('waiting_confirmation'));
    expect((await e.s.call('POST', `${base()}/tasks/${task.id}/confirm`, undefined, e.admin)).status).toBe(204 as number);
    const confirmedAgain = await e.s.call('POST', `${base()}/tasks/${task.id}/reject`, undefined, e.admin);
    // The first decision wins: a confirmed plan cannot be rejected any more.
    expect(confirmedAgain.status).toBe(400);
    await waitForTask(e.s.deps.db, task.id);

    const second = await run({ template_id: tpl.id });
    await waitForTask(e.s.deps.db, second.id, hasStatus('waiting_confirmation'));
    const before = readFileSync(tfLog, 'utf8');
    expect((await e.s.call('POST', `${base()}/tasks/${second.id}/reject`, undefined, e.admin)).status).toBe(204);
    const done = await waitForTask(e.s.deps.db, second.id);
    await e.engine.idle();
    expect(done.status).toBe('rejected');
    expect(readFileSync(tfLog, 'utf8').slice(before.length)).not.toMatch(/apply/);
  });

  it('terraform: a stop while waiting for confirmation ends the task stopped without apply', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'tf stop', app: 'terraform', playbook: 'infra', repository_id: fixture.repository.id });
    const task = await run({ template_id: tpl.id });
    await waitForTask(e.s.deps.db, task.id, hasStatus('waiting_confirmation'));
    const before = readFileSync(tfLog, 'utf8');
    expect((await e.s.call('POST', `${base()}/tasks/${task.id}/stop`, {}, e.admin)).status).toBe(204);
    expect((await waitForTask(e.s.deps.db, task.id)).status).toBe('stopped');
    await e.engine.idle();
    expect(readFileSync(tfLog, 'utf8').slice(before.length)).toBe('');
  });

  it('terraform: plan-only and auto_approve params need no confirmation', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, {
      name: 'tf auto', app: 'terraform', playbook: 'infra', repository_id: fixture.repository.id, task_params: JSON.stringify({ allow_auto_approve: true }),
    });
    const planOnly = await run({ template_id: tpl.id, params: { plan: true } });
    expect((await waitForTask(e.s.deps.db, planOnly.id)).status).toBe('success');
    expect(readFileSync(tfLog, 'utf8').trim().split('\n').at(-1)).toMatch(/^terraform plan/);
    const auto = await run({ template_id: tpl.id, params: { auto_approve: true, destroy: true } });
    expect((await waitForTask(e.s.deps.db, auto.id)).status).toBe('success');
    expect(readFileSync(tfLog, 'utf8').trim().split('\n').at(-1)).toMatch(/^terraform apply -auto-approve -input=false -destroy/);
  });

  it('checks out the branch by precedence (repository < template < task when allowed) and a fixed commit', async () => {
    const branched = createGitRepo(join(e.s.tmp, 'branched'), { 'which.sh': 'echo "on main"\n' });
    const feature = commitOnBranch(branched.path, 'feature', { 'which.sh': 'echo "on feature"\n' }, 'Feature work');
    commitOnBranch(branched.path, 'hotfix', { 'which.sh': 'echo "on hotfix"\n' }, 'Hotfix work');
    const second = commitFiles(branched.path, { 'which.sh': 'echo "on main again"\n' }, 'Second main commit');
    const repoRow = await e.s.deps.db.insertInto('repository').values({ project_id: fixture.project.id, name: 'Branched', git_url: `file://${branched.path}`, git_branch: 'main', ssh_key_id: fixture.key.id })
      .returningAll().executeTakeFirstOrThrow();
    const firstLine = async (id: number) => {
      const done = await waitForTask(e.s.deps.db, id);
      const log = await taskLog(e.s.deps.db, id);
      expect(done.status, log.join('\n')).toBe('success');
      return { line: log.find((l) => l.startsWith('on ')), done };
    };
    const plain = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Branch plain', playbook: 'which.sh', repository_id: repoRow.id });
    expect((await firstLine((await run({ template_id: plain.id, git_branch: 'hotfix' })).id)).line).toBe('on main again');
    const pinned = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Branch pinned', playbook: 'which.sh', repository_id: repoRow.id, git_branch: 'feature' });
    const onFeature = await firstLine((await run({ template_id: pinned.id })).id);
    expect(onFeature.line).toBe('on feature');
    expect(onFeature.done.commit_hash).toBe(feature.hash);
    const open = await insertTemplate(e.s.deps.db, fixture.project.id, {
      name: 'Branch open', playbook: 'which.sh', repository_id: repoRow.id, git_branch: 'feature', allow_override_branch_in_task: 1,
    });
    expect((await firstLine((await run({ template_id: open.id, git_branch: 'hotfix' })).id)).line).toBe('on hotfix');
    const fixed = await firstLine((await run({ template_id: plain.id, commit_hash: branched.hash })).id);
    expect(fixed.line).toBe('on main');
    expect(fixed.done.commit_hash).toBe(branched.hash);
    expect(second.hash).not.toBe(branched.hash);
  });

  it('runs python scripts and honours apps.<id>.args from the options', async () => {
    const py = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Python', app: 'python', playbook: 'show.py', repository_id: fixture.repository.id });
    await e.s.deps.db.insertInto('option').values({ key: 'apps.python.args', value: '["-u", "-c", "import sys; print(\'argv=\' + \' \'.join(sys.argv[1:]))"]' }).execute();
    try {
      const task = await run({ template_id: py.id, environment: '{"region":"ap"}' });
      const done = await waitForTask(e.s.deps.db, task.id);
      const log = await taskLog(e.s.deps.db, task.id);
      expect(done.status, log.join('\n')).toBe('success');
      // the script name always follows `--`; with `-c` in the app's args python hands it on as argv
      expect(log.find((l) => l.startsWith('argv='))).toMatch(/^argv=-- show\.py .*region=ap/);
    } finally {
      await e.s.deps.db.deleteFrom('option').where('key', '=', 'apps.python.args').execute();
    }
  });

  it('hands the repository ssh key to git through a temporary file that is gone after the run', async () => {
    const sshKey = await e.s.deps.db.insertInto('access_key').values({
      project_id: fixture.project.id, name: 'Deploy key', type: 'ssh', owner: '', environment_id: null, created: new Date().toISOString(),
      secret: e.s.deps.secrets.seal(JSON.stringify({ login: 'git', passphrase: '', private_key: '-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n-----END OPENSSH PRIVATE KEY-----' })),
    }).returningAll().executeTakeFirstOrThrow();
    const repoRow = await e.s.deps.db.insertInto('repository').values({ project_id: fixture.project.id, name: 'Keyed', git_url: `file://${repo.path}`, git_branch: 'main', ssh_key_id: sshKey.id })
      .returningAll().executeTakeFirstOrThrow();
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Keyed', playbook: 'run.sh', repository_id: repoRow.id });
    const task = await run({ template_id: tpl.id });
    expect((await waitForTask(e.s.deps.db, task.id)).status).toBe('success');
    const leftovers = readdirSync(e.s.config.tmp_path, { recursive: true }).map(String).filter((f) => f.includes('git-key') || f.includes(`secrets_${task.id}`));
    expect(leftovers).toEqual([]);
  });

  async function waitForLogLine(taskId: number, line: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if ((await taskLog(e.s.deps.db, taskId)).includes(line)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`task ${taskId} never printed ${line}: ${(await taskLog(e.s.deps.db, taskId)).join('\n')}`);
  }
});
