import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertSchedule, listTasks, manualClock } from '../../support/trigger-fixtures.ts';
import { startScheduler, type Scheduler } from '../../../src/server/scheduler/scheduler.ts';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, {
  cwd, encoding: 'utf8',
  env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e.test', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e.test' },
}).trim();

/** A bare "remote" with one commit on main, and a clone to push further commits from. */
function createRemote(dir: string) {
  const remote = join(dir, 'remote.git');
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  git(dir, 'init', '-q', '--bare', '-b', 'main', remote);
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'remote', 'add', 'origin', remote);
  const push = (file: string) => {
    writeFileSync(join(work, file), file);
    git(work, 'add', file);
    git(work, 'commit', '-q', '-m', `add ${file}`);
    git(work, 'push', '-q', 'origin', 'main');
    return git(work, 'rev-parse', 'HEAD');
  };
  return { remote, push };
}

for (const dialect of DIALECTS) {
  describe(`repository-commit schedules (${dialect})`, () => {
    let server: TestServer;
    let scheduler: Scheduler | undefined;
    beforeEach(async () => { server = await startTestServer(dialect); });
    afterEach(async () => { await scheduler?.stop(); await server.close(); });

    it('starts a task when the branch head changed and not when it did not, storing the seen hash', async () => {
      const { remote, push } = createRemote(join(server.tmp, 'git'));
      const first = push('a.txt');
      const fixture = await insertAdminProject(server);
      await server.deps.db.updateTable('repository').set({ git_url: remote, git_branch: 'main' }).where('id', '=', fixture.repository.id).execute();
      const schedule = await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, repository_id: fixture.repository.id });
      const clock = manualClock('2026-01-01T00:00:30Z');
      scheduler = startScheduler(server.deps, { now: clock.now, autoTick: false, log: () => {} });
      await scheduler.ready;

      clock.set('2026-01-01T00:01:00Z');
      await scheduler.tick();
      let tasks = await listTasks(server.deps.db, fixture.project.id);
      expect(tasks.map((t) => [t.schedule_id, t.commit_hash])).toEqual([[schedule.id, first]]);

      clock.set('2026-01-01T00:02:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(1);

      const second = push('b.txt');
      clock.set('2026-01-01T00:03:00Z');
      await scheduler.tick();
      tasks = await listTasks(server.deps.db, fixture.project.id);
      expect(tasks.map((t) => t.commit_hash)).toEqual([first, second]);
      const row = await server.deps.db.selectFrom('schedule').select('last_commit_hash').where('id', '=', schedule.id).executeTakeFirstOrThrow();
      expect(row.last_commit_hash).toBe(second);
    });

    it('starts nothing and keeps running when the remote cannot be read', async () => {
      const fixture = await insertAdminProject(server);
      await server.deps.db.updateTable('repository').set({ git_url: join(server.tmp, 'missing.git') }).where('id', '=', fixture.repository.id).execute();
      await insertSchedule(server.deps.db, { project_id: fixture.project.id, template_id: fixture.template.id, repository_id: fixture.repository.id });
      const lines: string[] = [];
      const clock = manualClock('2026-01-01T00:00:30Z');
      scheduler = startScheduler(server.deps, { now: clock.now, autoTick: false, log: (l) => lines.push(l) });
      await scheduler.ready;
      clock.set('2026-01-01T00:01:00Z');
      await scheduler.tick();
      expect(await listTasks(server.deps.db, fixture.project.id)).toHaveLength(0);
      expect(lines.join('\n')).toMatch(/git ls-remote .*missing\.git failed/);
    });
  });
}
