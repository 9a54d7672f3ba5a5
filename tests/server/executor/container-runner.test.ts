import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { listenOnLoopback } from '../../support/listen.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../../support/runner-process.ts';
import { IMAGE_MARKER, podmanAvailable, testImage } from '../../support/container-images.ts';
import { containerNameOf, containerState } from '../../support/task-containers.ts';

const runWithPodman = podmanAvailable() ? describe : describe.skip;
const REGISTRATION = 'registration-secret-3e9d';

runWithPodman('a remote runner runs the template image on its own machine (podman, sqlite)', () => {
  let srv: EngineServer;
  let stopHttp: () => Promise<void>;
  let dir: string;
  let image: string;
  let env: Record<string, string>;
  let runner: RunnerChild | undefined;
  let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  const runnerTmp = () => join(dir, 'runner', 'work');

  const queue = async (templateId: number) => {
    const res = await srv.s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: templateId }, srv.admin);
    expect(res.status, res.text).toBe(201);
    return (res.body as { id: number }).id;
  };

  beforeAll(async () => {
    image = await testImage('base');
    dir = mkdtempSync(join(tmpdir(), 'signalbox-container-runner-'));
    mkdirSync(join(dir, 'repo'));
    writeFileSync(join(dir, 'repo', 'where.sh'), `echo "inside: $(cat ${IMAGE_MARKER.path})"\n`, { mode: 0o755 });
    writeFileSync(join(dir, 'repo', 'forever.sh'), 'echo started\nwhile :; do sleep 0.2; done\n', { mode: 0o755 });
    srv = await startEngineServer('sqlite', { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SIGNALBOX_RUNNER_POLL_HOLD_MS: '5000' });
    stopHttp = await listenOnLoopback(srv.s);
    fx = await insertProjectWithTemplate(srv.s.deps.db, { ownerId: 1, gitUrl: join(dir, 'repo') });
    env = runnerEnv(srv.s.config.web_host, join(dir, 'runner'), { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, CONTAINERS_CONF: process.env.CONTAINERS_CONF! });
    await registerRunner(env, ['--name', 'runner-with-podman', '--tags', 'containers']);
    runner = startRunner(env);
    await until('the runner polling', async () => runner!.output().includes('runner started'), 90_000);
  }, 30 * 60_000);

  afterAll(async () => {
    await stopRunner(runner);
    await stopHttp?.();
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the task in the template's image on the runner, and the server shows which", async () => {
    const tpl = await insertTemplate(srv.s.deps.db, fx.project.id, {
      name: 'Where', playbook: 'where.sh', repository_id: fx.repository.id, runner_tag: 'containers', executor_image: image, executor_network: 'none',
    });
    const id = await queue(tpl.id);
    const done = await waitForTask(srv.s.deps.db, id, undefined, 180_000);
    const log = await taskLog(srv.s.deps.db, id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(done.runner_id).not.toBeNull();
    expect(log).toContain(`inside: ${IMAGE_MARKER.text}`);
    expect(log).toContain(`Running in a container of ${image} (podman, network none)`);
    expect(done.executor_image).toBe(image);
    expect(containerState(containerNameOf(runnerTmp(), id))).toBeNull();
  }, 240_000);

  it('a runner killed mid-task leaves its container; the runner started again removes it', async () => {
    const tpl = await insertTemplate(srv.s.deps.db, fx.project.id, {
      name: 'Forever', playbook: 'forever.sh', repository_id: fx.repository.id, runner_tag: 'containers', executor_image: image, executor_network: 'none',
    });
    const id = await queue(tpl.id);
    await until('the task running in its container', async () => (await taskLog(srv.s.deps.db, id)).includes('started'), 180_000);
    const name = containerNameOf(runnerTmp(), id);
    expect(containerState(name)).toBe('running');
    await stopRunner(runner);
    expect(containerState(name)).toBe('running');
    runner = startRunner(env);
    await until('the runner saying it removed the leftover', async () => runner!.output().includes(`removed the containers tasks ${id} left behind`), 120_000);
    expect(containerState(name)).toBeNull();
    // the restarted runner does not run it again: it reports it failed
    expect((await waitForTask(srv.s.deps.db, id, undefined, 120_000)).status).toBe('error');
  }, 420_000);
});
