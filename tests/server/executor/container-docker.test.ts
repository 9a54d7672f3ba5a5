import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { IMAGE_MARKER, podmanAvailable, testImage } from '../../support/container-images.ts';
import { containerNameOf, containerState, hostCommandLines, waitUntil } from '../../support/task-containers.ts';

const dockerCli = (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, 'docker')));
if (!dockerCli) console.warn('\n*** the docker CLI is not installed: the SEMAPHORE_EXECUTOR=docker test is SKIPPED ***\n');
const runWithDocker = podmanAvailable() && dockerCli ? describe : describe.skip;

/**
 * SEMAPHORE_EXECUTOR=docker: the docker CLI's own command lines, against the Docker API that
 * `podman system service` serves (there is no Docker daemon on the build machines).
 */
runWithDocker('tasks in containers with the docker CLI (Docker API of podman, sqlite)', () => {
  let e: EngineServer;
  let service: ChildProcess;
  let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let image: string;

  beforeAll(async () => {
    image = await testImage('base');
    e = await startEngineServer('sqlite', { SEMAPHORE_EXECUTOR: 'docker' });
    const socket = join(e.s.tmp, 'docker.sock');
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
    await waitUntil('the Docker API socket', () => existsSync(socket), 60_000);
    process.env.DOCKER_HOST = `unix://${socket}`;
    await waitUntil('the Docker API answering', () => {
      try {
        execFileSync('docker', ['version'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    }, 60_000);
    const scripts = join(e.s.tmp, 'scripts');
    mkdirSync(scripts);
    writeFileSync(join(scripts, 'probe.sh'), [
      `cat ${IMAGE_MARKER.path}`,
      'echo "SECRET=$SECRET_ENV"',
      'printf "MULTI=%s\\n" "$MULTI_LINE" | head -n 2 | tr "\\n" "|"; echo',
      'trap \'echo "got TERM"; exit 143\' TERM',
      'echo waiting',
      'while :; do sleep 0.2; done',
    ].join('\n'));
    fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'probe.sh' });
    await e.s.deps.db.updateTable('environment').set({ env: JSON.stringify({ MULTI_LINE: 'first line\nsecond line' }) }).where('id', '=', fx.environment.id).execute();
    await insertEnvironmentSecret(e.s.deps.db, e.s.deps.secrets, fx.environment.id, fx.project.id, 'env', 'SECRET_ENV', 'docker-secret-2b8e');
  }, 30 * 60_000);

  afterAll(async () => {
    await e?.close();
    delete process.env.DOCKER_HOST;
    service?.kill('SIGTERM');
  });

  it('runs the task in the image with its environment (a value of several lines too), keeps the secret out of inspect, stops it with SIGTERM and removes it', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fx.project.id, {
      name: 'Docker', playbook: 'probe.sh', repository_id: fx.repository.id, environment_id: fx.environment.id, executor_image: image, executor_network: 'none',
    });
    const res = await e.s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: tpl.id }, e.admin);
    const id = res.body.id as number;
    await waitUntil('the task waiting', async () => (await taskLog(e.s.deps.db, id)).includes('waiting'), 120_000);
    const log = await taskLog(e.s.deps.db, id);
    expect(log).toContain(`Running in a container of ${image} (docker, network none)`);
    expect(log).toContain(IMAGE_MARKER.text);
    expect(log).toContain('SECRET=********');
    expect(log).toContain('MULTI=first line|second line|');
    const name = containerNameOf(e.s.config.tmp_path, id);
    const inspected = execFileSync('docker', ['inspect', name], { encoding: 'utf8' });
    expect(JSON.parse(inspected)[0].Config.Labels['io.signalbox.task']).toBe(String(id));
    expect(inspected).not.toContain('docker-secret-2b8e');
    expect(hostCommandLines()).not.toContain('docker-secret-2b8e');

    expect((await e.s.call('POST', `/api/project/${fx.project.id}/tasks/${id}/stop`, {}, e.admin)).status).toBe(204);
    expect((await waitForTask(e.s.deps.db, id, undefined, 60_000)).status).toBe('stopped');
    expect(await taskLog(e.s.deps.db, id)).toContain('got TERM');
    expect(containerState(name)).toBeNull();
  }, 300_000);
});
