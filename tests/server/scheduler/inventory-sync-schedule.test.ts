import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { createTestProject } from '../../support/project-members.ts';
import { commitFiles, createGitRepo } from '../../support/git-repo.ts';
import { manualClock } from '../../support/trigger-fixtures.ts';
import { startScheduler, type Scheduler } from '../../../src/server/scheduler/scheduler.ts';
import { scheduledSync } from '../../../src/server/engine/inventory/inventory-sync.ts';

/** A dynamic inventory: prints the hosts listed in hosts.txt beside it. */
const SCRIPT = `#!/bin/sh
if [ "$1" = "--list" ]; then
  hosts=$(sed 's/.*/"&"/' "$(dirname "$0")/hosts.txt" | paste -sd, -)
  printf '{"cloud": {"hosts": [%s]}, "_meta": {"hostvars": {}}}\\n' "$hosts"
else
  printf '{}\\n'
fi
`;

for (const dialect of DIALECTS) {
  describe(`inventory sync schedules run by the scheduler, its clock moved by the test (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let scheduler: Scheduler;
    let inventoryId: number;
    let repoPath: string;
    const clock = manualClock('2026-12-01T10:30:00Z');
    const call = (method: string, path: string, body?: unknown) => s.call(method, `${base}${path}`, body, admin);
    const syncs = async () => (await call('GET', `/inventory/${inventoryId}/syncs`)).body as { scheduled: boolean; user_id: number | null; hosts_added: string[]; hosts_removed: string[] }[];
    const at = async (iso: string) => {
      clock.set(iso);
      await scheduler.tick();
    };

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base } = await createTestProject(s));
      repoPath = createGitRepo(join(s.tmp, 'cloud'), { 'inventory/cloud.sh': SCRIPT, 'inventory/hosts.txt': 'vm1\nvm2\n' }).path;
      const noneKey = (await call('GET', '/keys')).body[0].id;
      const repo = await call('POST', '/repositories', { name: 'Cloud', git_url: `file://${repoPath}`, git_branch: 'main', ssh_key_id: noneKey });
      expect(repo.status, repo.text).toBe(201);
      const bad = await call('POST', '/inventory', { name: 'Bad', type: 'script', inventory: 'inventory/cloud.sh', repository_id: repo.body.id, ssh_key_id: noneKey, sync_cron: 'every hour' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/^Cron: /);
      const res = await call('POST', '/inventory', { name: 'Cloud', type: 'script', inventory: 'inventory/cloud.sh', repository_id: repo.body.id, ssh_key_id: noneKey, sync_cron: '0 * * * *' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.sync_cron).toBe('0 * * * *');
      inventoryId = res.body.id;
      scheduler = startScheduler(s.deps, { now: clock.now, autoTick: false, log: () => {}, syncInventory: scheduledSync(s.deps) });
      await scheduler.ready;
    }, 60_000);
    afterAll(async () => {
      await scheduler?.stop();
      await s?.close();
    });

    it('keeps a sync schedule only on url and script inventories', async () => {
      const noneKey = (await call('GET', '/keys')).body[0].id;
      const res = await call('POST', '/inventory', { name: 'Static', type: 'static', inventory: '[web]\nweb1\n', ssh_key_id: noneKey, sync_cron: '0 * * * *' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.sync_cron).toBeNull();
    });

    it('syncs at each due time once, recorded as the schedule\'s, and stops when the schedule is taken off', async () => {
      await at('2026-12-01T10:59:59Z');
      expect(await syncs()).toEqual([]);
      await at('2026-12-01T11:00:01Z');
      await scheduler.tick();
      const first = await syncs();
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ scheduled: true, user_id: null, hosts_added: ['vm1', 'vm2'], hosts_removed: [], error: null });
      commitFiles(repoPath, { 'inventory/hosts.txt': 'vm2\nvm3\n' }, 'Swap a VM');
      await at('2026-12-01T12:00:02Z');
      const second = await syncs();
      expect(second).toHaveLength(2);
      expect(second[0]).toMatchObject({ scheduled: true, hosts_added: ['vm3'], hosts_removed: ['vm1'] });
      const events = (await call('GET', '/events')).body as { description: string }[];
      expect(events.some((e) => e.description === 'Inventory Cloud synced by its schedule: 2 hosts, 1 added, 1 removed')).toBe(true);
      // by hand: not the schedule's
      expect((await call('POST', `/inventory/${inventoryId}/sync`)).body).toMatchObject({ scheduled: false, user_id: expect.any(Number) });
      const inventory = (await call('GET', `/inventory/${inventoryId}`)).body;
      const put = await call('PUT', `/inventory/${inventoryId}`, { ...inventory, sync_cron: null });
      expect(put.status, put.text).toBe(204);
      await at('2026-12-01T13:00:03Z');
      expect(await syncs()).toHaveLength(3);
    });
  });
}
