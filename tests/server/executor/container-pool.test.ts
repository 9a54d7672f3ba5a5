import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { startGitDaemon } from '../../support/git-daemon.ts';
import { freeUidRange, removePoolAccounts } from '../../support/uid-pool.ts';
import { podmanAvailable, testImage } from '../../support/container-images.ts';
import { waitUntil } from '../../support/task-containers.ts';

const runWithPodman = podmanAvailable() ? describe : describe.skip;

/** The host task holds its pool uid until the test lets it go (a file in its TMPDIR). */
const HOLD = 'echo "host uid=$(id -u)"\nwhile [ ! -e "$TMPDIR/go" ]; do sleep 0.1; done\n';
const WHO = 'echo "container uid=$(id -u)"\n';

runWithPodman('a container task on a server with a uid pool (podman, sqlite)', () => {
  let e: EngineServer;
  let range: { first: number; last: number };
  let daemon: Awaited<ReturnType<typeof startGitDaemon>>;
  let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let image: string;

  beforeAll(async () => {
    image = await testImage('base');
    // one uid only: a second host task would wait for it
    range = freeUidRange(1);
    e = await startEngineServer('sqlite', { SEMAPHORE_PROCESS_UID_POOL: `${range.first}-${range.last}` });
    chmodSync(e.s.tmp, 0o711);
    const served = join(e.s.tmp, 'served');
    createGitRepo(join(served, 'site.git'), { 'hold.sh': HOLD, 'who.sh': WHO });
    daemon = await startGitDaemon(served);
    fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, playbook: 'hold.sh', gitUrl: `${daemon.url}/site.git` });
  }, 30 * 60_000);
  afterAll(async () => {
    daemon?.stop();
    await e?.close();
    if (range) removePoolAccounts(range);
  });

  const start = async (templateId: number) => {
    const res = await e.s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: templateId }, e.admin);
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };

  it('takes the container as its identity: it runs while the only pool uid is busy, and leaves tmp_path passable for pool users', async () => {
    const host = await start(fx.template.id);
    await waitUntil('the host task holding the pool uid', async () => (await taskLog(e.s.deps.db, host)).includes(`host uid=${range.first}`), 120_000);
    const tpl = await insertTemplate(e.s.deps.db, fx.project.id, { name: 'Who', playbook: 'who.sh', repository_id: fx.repository.id, executor_image: image, executor_network: 'none' });
    const contained = await start(tpl.id);
    const done = await waitForTask(e.s.deps.db, contained, undefined, 180_000);
    const log = await taskLog(e.s.deps.db, contained);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log).toContain('container uid=0');
    expect(log.join('\n')).not.toContain('Waiting for a task user');
    expect(statSync(e.s.config.tmp_path).mode & 0o777).toBe(0o711);
    // the host task is still running as the pool user, undisturbed
    expect((await e.s.deps.db.selectFrom('task').select('status').where('id', '=', host).executeTakeFirstOrThrow()).status).toBe('running');
    writeFileSync(join(e.s.config.tmp_path, `task_${host}`, 'tmp', 'go'), '');
    expect((await waitForTask(e.s.deps.db, host, undefined, 120_000)).status).toBe('success');
  }, 400_000);
});
