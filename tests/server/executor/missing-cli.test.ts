import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';

/** Where the chosen container CLI is missing, a task with an image fails at once and says why. */
describe('a container task where the container CLI is missing (sqlite)', () => {
  let e: EngineServer;
  const path = process.env.PATH;
  beforeAll(async () => {
    // the server looks the CLI up on its PATH: this one has no docker
    process.env.PATH = (path ?? '').split(':').filter((dir) => dir && !existsSync(join(dir, 'docker'))).join(':');
    e = await startEngineServer('sqlite', { SEMAPHORE_EXECUTOR: 'docker' });
  });
  afterAll(async () => {
    process.env.PATH = path;
    await e.close();
  });

  it('ends the task as error naming the CLI and the setting; a task without an image still runs on the host', async () => {
    const scripts = join(e.s.tmp, 'scripts');
    mkdirSync(scripts);
    writeFileSync(join(scripts, 'run.sh'), 'echo on the host\n');
    const fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'run.sh' });
    const run = async () => (await e.s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: fx.template.id }, e.admin)).body.id as number;
    const onHost = await run();
    expect((await waitForTask(e.s.deps.db, onHost)).status).toBe('success');
    expect(await taskLog(e.s.deps.db, onHost)).toContain('on the host');

    await e.s.deps.db.updateTable('template').set({ executor_image: 'alpine:3' }).where('id', '=', fx.template.id).execute();
    const id = await run();
    const done = await waitForTask(e.s.deps.db, id);
    const log = await taskLog(e.s.deps.db, id);
    expect(done.status).toBe('error');
    expect(log).toContain('Running app failed: docker is not installed on this machine (SEMAPHORE_EXECUTOR=docker)');
    expect(log).not.toContain('on the host');
    expect(done.executor_image).toBe('alpine:3');
  });
});
