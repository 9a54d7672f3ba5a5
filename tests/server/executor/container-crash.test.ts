import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { taskLog, waitForTask, hasStatus } from '../../support/engine.ts';
import { ADMIN } from '../../support/harness.ts';
import { freePort, startServerProcess, startTaskOverHttp, type ServerProcess } from '../../support/server-process.ts';
import { podman, podmanAvailable, testImage } from '../../support/container-images.ts';
import { containerNameOf, containerState, waitUntil } from '../../support/task-containers.ts';
import { LABELS, containerInstance } from '../../../src/server/engine/container/container-cli.ts';

const runWithPodman = podmanAvailable() ? describe : describe.skip;

runWithPodman('kill -9 of a server whose task runs in a container (podman, sqlite)', () => {
  let tmp: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let db: Db;
  let image: string;
  let tmpPath: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    image = await testImage('base');
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-container-crash-'));
    tmpPath = join(tmp, 'work');
    port = await freePort();
    const scripts = join(tmp, 'scripts');
    mkdirSync(scripts);
    writeFileSync(join(scripts, 'forever.sh'), 'echo started\nwhile :; do sleep 0.2; done\n');
    env = {
      ...process.env, SEMAPHORE_DB_DIALECT: 'sqlite', SEMAPHORE_DB_HOST: join(tmp, 'db.sqlite'), SEMAPHORE_PORT: String(port),
      SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_TMP_PATH: tmpPath, SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password,
    };
    servers.push(await startServerProcess(env, port));
    db = openDatabase({ dialect: 'sqlite', host: join(tmp, 'db.sqlite') });
    const f = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'forever.sh' });
    await db.updateTable('template').set({ executor_image: image, executor_network: 'none' }).where('id', '=', f.template.id).execute();
    await insertTemplate(db, f.project.id, { name: 'Spare', playbook: 'forever.sh', repository_id: f.repository.id });
  }, 30 * 60_000);

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    for (const name of podman('ps', '--all', `--filter=label=${LABELS.instance}=${containerInstance(tmpPath)}`, '--format={{.Names}}').split('\n').filter(Boolean)) podman('rm', '--force', '--time=0', name);
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('leaves the container running when the server dies; the next start removes it before it closes the task', async () => {
    const id = await startTaskOverHttp(port, 1, 1);
    await waitUntil('the task printing started', async () => (await taskLog(db, id)).includes('started'), 120_000);
    const name = containerNameOf(tmpPath, id);
    expect(containerState(name)).toBe('running');

    servers[0]!.child.kill('SIGKILL');
    await new Promise((resolve) => servers[0]!.child.once('exit', resolve));
    // the container is not a child of the server: nothing ended it
    expect(containerState(name)).toBe('running');

    servers.push(await startServerProcess(env, port));
    const row = await waitForTask(db, id, hasStatus('error'), 60_000);
    expect(row.status).toBe('error');
    expect(containerState(name)).toBeNull();
    const log = await taskLog(db, id);
    expect(log).toContain(`Task interrupted: its container (${image}) was still running after the server stopped; it was removed.`);
    expect(log.at(-1)).toBe('Task interrupted: the server stopped while the task was running; marked as error on restart.');
  }, 300_000);

  it('removes, at a start, a container left behind by a task that is already over', async () => {
    // as when removing it failed at the end of its task: a container named for a finished task
    const { id } = await db.selectFrom('task').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const leftover = containerNameOf(tmpPath, id);
    podman('run', '--detach', '--rm', '--name', leftover, '--label', `${LABELS.instance}=${containerInstance(tmpPath)}`, '--network=none', '--entrypoint=sleep', image, '600');
    const other = `signalbox-unrelated-${process.pid}`;
    podman('run', '--detach', '--rm', '--name', other, '--network=none', '--entrypoint=sleep', image, '600');
    try {
      servers.at(-1)!.child.kill('SIGKILL');
      servers.push(await startServerProcess(env, port));
      await waitUntil('the leftover container removed', () => containerState(leftover) === null, 60_000);
      // a container of someone else on the same engine stays
      expect(containerState(other)).toBe('running');
    } finally {
      podman('rm', '--force', '--time=0', other);
    }
  }, 300_000);
});
