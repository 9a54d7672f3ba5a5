import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../../support/harness.ts';
import { insertProjectWithTemplate } from '../../../support/fixtures.ts';
import { recoverInterruptedTasks } from '../../../../src/server/engine/queue/recover-tasks.ts';
import { now } from '../../../../src/server/lib/time.ts';
import { spawn } from 'node:child_process';
import { bootId, isProcessAlive, thisHost } from '../../../../src/server/engine/queue/this-machine.ts';

for (const dialect of DIALECTS) {
  describe(`crash recovery rules (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('fails only tasks whose engine is gone, with a log line, and leaves live engines alone', async () => {
      const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      const long = new Date(Date.now() - 5 * 60_000).toISOString();
      const workers = [
        { id: 'other-host:1:live', host: 'other-host', pid: 1, started: now(), heartbeat_at: now() },
        { id: 'other-host:2:stale', host: 'other-host', pid: 2, started: long, heartbeat_at: long },
        { id: `${thisHost()}:999999:dead`, host: thisHost(), pid: 999_999, started: now(), heartbeat_at: now() },
      ];
      await s.deps.db.insertInto('engine_worker').values(workers).execute();
      const task = (status: string, lockedBy: string | null) => s.deps.db.insertInto('task').values({
        project_id: fx.project.id, template_id: fx.template.id, status, locked_by: lockedBy, playbook: '', environment: '{}',
        message: '', commit_message: '', params: '{}', created: now(), start: now(),
      }).returning('id').executeTakeFirstOrThrow();
      const live = await task('running', 'other-host:1:live');
      const stale = await task('running', 'other-host:2:stale');
      const deadPid = await task('waiting_confirmation', `${thisHost()}:999999:dead`);
      const unlocked = await task('starting', null);
      const queued = await task('waiting', null);

      const self = { id: `${thisHost()}:${process.pid}:self`, host: thisHost(), pid: process.pid };
      const recovered = await recoverInterruptedTasks(s.deps, self);
      expect(recovered.sort((a, b) => a - b)).toEqual([stale.id, deadPid.id, unlocked.id]);

      const statuses = await s.deps.db.selectFrom('task').select(['id', 'status']).orderBy('id').execute();
      expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toMatchObject({
        [live.id]: 'running', [stale.id]: 'error', [deadPid.id]: 'error', [unlocked.id]: 'error', [queued.id]: 'waiting',
      });
      const log = await s.deps.db.selectFrom('task_output').select('output').where('task_id', '=', deadPid.id).execute();
      expect(log.map((r) => r.output)).toEqual(['Task interrupted: the server stopped while the task was waiting_confirmation; marked as error on restart.']);
      const left = await s.deps.db.selectFrom('engine_worker').select('id').execute();
      expect(left.map((r) => r.id)).toEqual(['other-host:1:live']);
    });

    it('leaves alone a recorded process group that no longer holds the task\'s processes (the id was reused)', async () => {
      const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      // a process group of its own, without the task's environment marker
      const stranger = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
      try {
        const row = await s.deps.db.insertInto('task').values({
          project_id: fx.project.id, template_id: fx.template.id, status: 'running', locked_by: null, playbook: '', environment: '{}',
          message: '', commit_message: '', params: '{}', created: now(), start: now(),
          process_group: stranger.pid!, process_host: thisHost(), process_boot_id: bootId(),
        }).returning('id').executeTakeFirstOrThrow();
        const self = { id: `${thisHost()}:${process.pid}:self2`, host: thisHost(), pid: process.pid };
        expect(await recoverInterruptedTasks(s.deps, self)).toContain(row.id);
        expect(isProcessAlive(stranger.pid!)).toBe(true);
        const log = await s.deps.db.selectFrom('task_output').select('output').where('task_id', '=', row.id).execute();
        expect(log.map((r) => r.output)).toEqual(['Task interrupted: the server stopped while the task was running; marked as error on restart.']);
      } finally {
        stranger.kill('SIGKILL');
      }
    });
  });
}
