import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type World } from '../support/world.ts';
import { insertTemplate } from '../support/fixtures.ts';
import { insertKey, insertRepository } from '../support/project-rows.ts';
import { commitFiles, commitOnBranch, createGitRepo } from '../support/git-repo.ts';
import { startHttpEngineServer } from '../support/http-test-server.ts';
import { taskLog, waitForTask } from '../support/engine.ts';
import { insertIntegration, insertSchedule } from '../support/trigger-fixtures.ts';
import { fireSchedule } from '../../src/server/scheduler/fire-schedule.ts';

for (const dialect of DIALECTS) {
  describe(`a task runs a commit only from its template's branch, unless the template lets a task choose the branch (${dialect}, real git)`, () => {
    let server: Awaited<ReturnType<typeof startHttpEngineServer>>;
    let w: World;
    let pinned = 0;
    let free = 0;
    let repositoryId = 0;
    let keyId = 0;
    let repoPath = '';
    const commits = { old: '', evil: '', tag: '' };

    beforeAll(async () => {
      server = await startHttpEngineServer(dialect);
      const { db } = server.s.deps;
      w = await buildWorld(db);
      repoPath = join(server.s.tmp, `repo-${w.projectId}`);
      commits.old = createGitRepo(repoPath, { 'run.sh': 'echo old-code\n' }, 'Old').hash;
      commitFiles(repoPath, { 'run.sh': 'echo good-code\n' }, 'Good');
      // a commit that exists only on another branch, and a tag named like a prefix of an old main commit that points at it
      commits.evil = commitOnBranch(repoPath, 'feature', { 'run.sh': 'echo evil-code\n' }, 'evil').hash;
      commits.tag = commits.old.slice(0, 8);
      execFileSync('git', ['tag', commits.tag, commits.evil], { cwd: repoPath });
      keyId = (await insertKey(db, w.projectId, 'None')).id;
      repositoryId = (await insertRepository(db, w.projectId, keyId, 'Scripts', `file://${repoPath}`)).id;
      const template = { app: 'bash', playbook: 'run.sh', repository_id: repositoryId, allow_parallel_tasks: 1 };
      pinned = (await insertTemplate(db, w.projectId, { name: 'Pinned', ...template })).id;
      free = (await insertTemplate(db, w.projectId, { name: 'Any branch', ...template, allow_override_branch_in_task: 1 })).id;
    }, 60_000);
    afterAll(() => server.close());

    const run = async (templateId: number, commitHash: string) => {
      const res = await fetch(`${server.url}/api/project/${w.projectId}/tasks`, {
        method: 'POST', headers: { ...w.auth.task_runner, 'content-type': 'application/json' }, body: JSON.stringify({ template_id: templateId, commit_hash: commitHash }),
      });
      expect(res.status).toBe(201);
      return ended(((await res.json()) as { id: number }).id);
    };
    const ended = async (taskId: number) => {
      const task = await waitForTask(server.s.deps.db, taskId, undefined, 60_000);
      return { status: task.status, log: (await taskLog(server.s.deps.db, taskId)).join('\n') };
    };

    it('refuses a task_runner\'s commit that is only on another branch, in full, short, or as a hash-named tag', async () => {
      for (const hash of [commits.evil, commits.evil.slice(0, 7), commits.tag]) {
        const { status, log } = await run(pinned, hash);
        expect([hash, status], log).toEqual([hash, 'error']);
        expect(log).toContain(`commit ${hash} is not on branch main, and the template does not let a task choose its branch`);
        expect(log).not.toContain('evil-code');
      }
    }, 120_000);

    it('runs an older commit of the template\'s branch', async () => {
      const { status, log } = await run(pinned, commits.old.slice(0, 10));
      expect(status, log).toBe('success');
      expect(log).toContain('old-code');
      const row = await server.s.deps.db.selectFrom('task').select('commit_hash').where('template_id', '=', pinned).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row.commit_hash).toBe(commits.old);
    }, 60_000);

    it('runs any commit where the template lets a task choose its branch', async () => {
      const { status, log } = await run(free, commits.evil);
      expect(status, log).toBe('success');
      expect(log).toContain('evil-code');
    }, 60_000);

    it('refuses the same commit when a webhook extracts it', async () => {
      const { integration, alias } = await insertIntegration(server.s, w.projectId, pinned, {
        name: 'Push', values: [{ value_source: 'body', key: 'after', variable: 'commit_hash', variable_type: 'task' }],
      });
      const res = await fetch(`${server.url}/api/integrations/${alias}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ after: commits.evil }) });
      expect(res.status).toBe(204);
      const delivery = await server.s.deps.db.selectFrom('integration_delivery').selectAll().where('integration_id', '=', integration.id).executeTakeFirstOrThrow();
      expect(delivery.reason).toBe('matched');
      const { status, log } = await ended(delivery.task_id!);
      expect(status, log).toBe('error');
      expect(log).not.toContain('evil-code');
    }, 60_000);

    it('refuses the head of another branch that a commit schedule watches', async () => {
      const { db } = server.s.deps;
      const watched = await insertRepository(db, w.projectId, keyId, 'Feature branch', `file://${repoPath}`);
      await db.updateTable('repository').set({ git_branch: 'feature' }).where('id', '=', watched.id).execute();
      const schedule = await insertSchedule(db, { project_id: w.projectId, template_id: pinned, repository_id: watched.id });
      const task = await fireSchedule(server.s.deps, schedule, new Date());
      expect(task?.commit_hash).toBe(commits.evil);
      const { status, log } = await ended(task!.id);
      expect(status, log).toBe('error');
      expect(log).not.toContain('evil-code');
    }, 60_000);
  });
}
