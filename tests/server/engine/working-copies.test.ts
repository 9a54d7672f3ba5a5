import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { commitFiles, commitOnBranch, createGitRepo } from '../../support/git-repo.ts';

/**
 * Prints the branch's file, waits (at most 30 s) until every run of the test has started, then
 * prints the file again with where its objects come from: both runs are in their checkouts at once.
 */
const show = (marks: string, runs: number) => [
  'echo "first=$(cat which.txt)"',
  `mkdir -p -- '${marks}' && touch -- '${marks}/'"$SEMAPHORE_TASK_DETAILS_ID"`,
  `i=0; while [ "$(ls -- '${marks}' | wc -l)" -lt ${runs} ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done`,
  `echo "together=$(ls -- '${marks}' | wc -l)"`,
  'echo "second=$(cat which.txt)"',
  'echo "dir=$PWD"',
  'echo "alternates=$(cat .git/objects/info/alternates 2>/dev/null)"',
  'echo "own-packs=$(ls .git/objects/pack | wc -l)"',
].join('\n');

/** A playbook that uses the role its requirements install, printing the role's message. */
const PLAYBOOK = `- hosts: all
  gather_facts: false
  roles:
    - greeter
`;

describe('each task its own working copy, borrowing from a shared object cache (sqlite)', () => {
  let e: EngineServer;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let repoPath: string;
  const run = async (body: Record<string, unknown>) => {
    const res = await e.s.call('POST', `/api/project/${fixture.project.id}/tasks`, body, e.admin);
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const finish = async (id: number) => {
    const done = await waitForTask(e.s.deps.db, id, undefined, 90_000);
    const log = await taskLog(e.s.deps.db, id);
    expect(done.status, log.join('\n')).toBe('success');
    return log;
  };
  const value = (log: string[], name: string) => log.find((l) => l.startsWith(`${name}=`))?.slice(name.length + 1);

  beforeAll(async () => {
    e = await startEngineServer('sqlite');
    repoPath = join(e.s.tmp, 'repo');
    const marks = (name: string) => join(e.s.tmp, name);
    createGitRepo(repoPath, { 'which.txt': 'main-content\n', 'show.sh': show(marks('marks-a'), 2), 'again.sh': show(marks('marks-b'), 1) }, 'Main');
    commitOnBranch(repoPath, 'feature', { 'which.txt': 'feature-content\n' }, 'Feature');
    fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repoPath}`, playbook: 'show.sh' });
    await e.s.deps.db.updateTable('template').set({ allow_parallel_tasks: 1, allow_override_branch_in_task: 1 }).where('id', '=', fixture.template.id).execute();
  });
  afterAll(async () => { await e.close(); });

  it('runs two tasks of one template at once on different branches, each seeing its own files', async () => {
    const onMain = await run({ template_id: fixture.template.id, git_branch: 'main' });
    const onFeature = await run({ template_id: fixture.template.id, git_branch: 'feature' });
    const [mainLog, featureLog] = await Promise.all([finish(onMain), finish(onFeature)]);
    // both were in their checkouts at the same time, and neither saw the other's branch
    for (const log of [mainLog, featureLog]) expect(value(log, 'together')).toBe('2');
    expect([value(mainLog, 'first'), value(mainLog, 'second')]).toEqual(['main-content', 'main-content']);
    expect([value(featureLog, 'first'), value(featureLog, 'second')]).toEqual(['feature-content', 'feature-content']);
    const tmp = e.s.config.tmp_path;
    expect(value(mainLog, 'dir')).toBe(join(tmp, `repository_${fixture.repository.id}_task_${onMain}`));
    expect(value(featureLog, 'dir')).toBe(join(tmp, `repository_${fixture.repository.id}_task_${onFeature}`));
    // the working copies went with their runs; the cache stays, and no lock is left
    for (const id of [onMain, onFeature]) expect(existsSync(join(tmp, `repository_${fixture.repository.id}_task_${id}`))).toBe(false);
    expect(readdirSync(tmp).filter((name) => name.startsWith(`repository_${fixture.repository.id}_`))).toEqual([`repository_${fixture.repository.id}_cache`]);
  }, 120_000);

  it('borrows the objects of the cache, and a later run fetches only what is new into it', async () => {
    const cache = join(e.s.config.tmp_path, `repository_${fixture.repository.id}_cache`);
    commitFiles(repoPath, { 'which.txt': 'main-updated\n' }, 'Update main');
    const id = await run({ template_id: (await insertTemplate(e.s.deps.db, fixture.project.id, { name: 'Again', playbook: 'again.sh', repository_id: fixture.repository.id })).id });
    const log = await finish(id);
    expect(value(log, 'first')).toBe('main-updated');
    expect(log).toContain(`Using the object cache of repository file://${repoPath}`);
    // the working copy holds no objects of its own: it reads the cache's
    expect(value(log, 'alternates')).toBe(join(cache, 'objects'));
    expect(value(log, 'own-packs')).toBe('0');
  }, 120_000);

  it('makes a cache git cannot fetch into again, once', async () => {
    const cache = join(e.s.config.tmp_path, `repository_${fixture.repository.id}_cache`);
    writeFileSync(join(cache, 'HEAD'), 'not a ref\n');
    const log = await finish(await run({ template_id: fixture.template.id, git_branch: 'feature' }));
    expect(log).toContain('Fetching into the object cache failed; making it again');
    expect(value(log, 'first')).toBe('feature-content');
    expect(value(log, 'alternates')).toBe(join(cache, 'objects'));
  }, 120_000);

  it('installs galaxy roles into folders of the run: two parallel runs on different branches each use their own role version', async () => {
    const roleRepo = join(e.s.tmp, 'greeter');
    const task = (message: string) => ({ 'tasks/main.yml': `- debug:\n    msg: "greeter says ${message}"\n`, 'meta/main.yml': 'galaxy_info:\n  author: test\n  description: greeter\n  license: MIT\n  min_ansible_version: "2.9"\n  platforms: []\ndependencies: []\n' });
    createGitRepo(roleRepo, task('one'), 'v1');
    commitOnBranch(roleRepo, 'v2', task('two'), 'v2');
    const requirement = (version: string) => `- src: git+file://${roleRepo}\n  name: greeter\n  version: ${version}\n`;
    const galaxyRepo = join(e.s.tmp, 'galaxy-repo');
    mkdirSync(galaxyRepo);
    createGitRepo(galaxyRepo, { 'site.yml': PLAYBOOK, 'roles/requirements.yml': requirement('main') }, 'Main');
    commitOnBranch(galaxyRepo, 'feature', { 'roles/requirements.yml': requirement('v2') }, 'Feature');
    const repo = await e.s.deps.db.insertInto('repository').values({ project_id: fixture.project.id, name: 'Galaxy', git_url: `file://${galaxyRepo}`, git_branch: 'main', ssh_key_id: fixture.key.id })
      .returning('id').executeTakeFirstOrThrow();
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, {
      name: 'Roles', app: 'ansible', playbook: 'site.yml', repository_id: repo.id, inventory_id: fixture.inventory.id, allow_parallel_tasks: 1, allow_override_branch_in_task: 1,
    });
    const one = await run({ template_id: tpl.id, git_branch: 'main' });
    const two = await run({ template_id: tpl.id, git_branch: 'feature' });
    const [oneLog, twoLog] = (await Promise.all([finish(one), finish(two)])).map((l) => l.join('\n'));
    expect(oneLog).toContain('greeter says one');
    expect(oneLog).not.toContain('greeter says two');
    expect(twoLog).toContain('greeter says two');
    expect(twoLog).not.toContain('greeter says one');
    expect(oneLog).toContain(join(e.s.config.tmp_path, `task_${one}`, 'galaxy', 'roles'));
    // nothing was installed where every run would see it
    expect(existsSync(join(e.s.config.tmp_path, '.ansible', 'roles', 'greeter'))).toBe(false);
  }, 180_000);
});
