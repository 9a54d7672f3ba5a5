import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';

const LOCAL = { ansible_connection: 'local', ansible_python_interpreter: '/usr/bin/python3' };

/** What a dynamic inventory prints for `--list`: groups with host lists, variables under `_meta`. */
const LISTING = JSON.stringify({
  web: { hosts: ['web1', 'web2'] },
  prod: { children: ['web'] },
  _meta: { hostvars: { web1: LOCAL, web2: LOCAL } },
});

const SCRIPT = `#!/bin/sh
if [ "$1" = "--list" ]; then
  printf '%s\\n' '{"db": {"hosts": ["db1"]}, "edge": {"hosts": ["edge1"], "children": ["db"]}, "_meta": {"hostvars": {}}}'
else
  printf '{}\\n'
fi
`;

const BROKEN_SCRIPT = '#!/bin/sh\necho "no cloud credentials found" >&2\nexit 3\n';

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - debug:
        msg: "ran on {{ inventory_hostname }}"
`;

/** The test's own inventory service: answers what `served` holds, to a Bearer token only. */
async function inventoryService() {
  const seen: IncomingHttpHeaders[] = [];
  const state = { body: LISTING, type: 'application/json' };
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    if (req.headers.authorization !== 'Bearer inventory-token-7') return void res.writeHead(401).end('no');
    res.writeHead(200, { 'content-type': state.type }).end(state.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/inventory`;
  return { seen, state, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

for (const dialect of DIALECTS) {
  describe(`url and script inventories synced with real ansible-inventory (${dialect})`, () => {
    let e: EngineServer;
    let base: string;
    let noneKey: number;
    let tokenKey: number;
    let repositoryId: number;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let service: Awaited<ReturnType<typeof inventoryService>>;
    const call = (method: string, path: string, body?: unknown) => e.s.call(method, `${base}${path}`, body, e.admin);
    const addInventory = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/inventory', { ssh_key_id: noneKey, ...body });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const sync = async (id: number) => {
      const res = await call('POST', `/inventory/${id}/sync`);
      expect(res.status, res.text).toBe(201);
      return res.body;
    };

    beforeAll(async () => {
      e = await startEngineServer(dialect);
      service = await inventoryService();
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'site.yml': PLAYBOOK, 'inventory/cloud.sh': SCRIPT, 'inventory/broken.sh': BROKEN_SCRIPT }, 'Add inventory scripts');
      fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}` });
      base = `/api/project/${fx.project.id}`;
      noneKey = fx.key.id;
      repositoryId = fx.repository.id;
      const key = await call('POST', '/keys', { name: 'Inventory token', type: 'login_password', login_password: { login: '', password: 'inventory-token-7' } });
      expect(key.status, key.text).toBe(201);
      tokenKey = key.body.id;
    }, 60_000);
    afterAll(async () => { await service?.close(); await e?.close(); });

    it('refuses a url inventory whose address is no http(s) URL and a script inventory without its repository', async () => {
      const url = await call('POST', '/inventory', { name: 'Ftp', type: 'url', inventory: 'ftp://example.test/hosts', ssh_key_id: noneKey });
      expect(url.status).toBe(400);
      expect(url.body.error).toContain('http');
      const script = await call('POST', '/inventory', { name: 'Loose', type: 'script', inventory: 'inventory/cloud.sh', ssh_key_id: noneKey });
      expect(script.status).toBe(400);
      expect(script.body.error).toContain('repository_id');
    });

    it('reads a url inventory with its key, in JSON, INI and YAML, and records the hosts each sync added and removed', async () => {
      const id = await addInventory({ name: 'Cloud URL', type: 'url', inventory: service.url, source_key_id: tokenKey });
      const before = await call('GET', `/inventory/${id}/hosts`);
      expect(before.status).toBe(400);
      expect(before.body.error).toContain('not been synced');

      const first = await sync(id);
      expect(first).toMatchObject({ inventory_id: id, error: null, host_count: 2, hosts_added: ['web1', 'web2'], hosts_removed: [], user_id: expect.any(Number), task_id: null });
      expect(service.seen.at(-1)?.authorization).toBe('Bearer inventory-token-7');
      const hosts = await call('GET', `/inventory/${id}/hosts`);
      expect(hosts.body.hosts).toEqual([{ name: 'web1', groups: ['prod', 'web'] }, { name: 'web2', groups: ['prod', 'web'] }]);
      expect(hosts.body.groups.find((g: { name: string }) => g.name === 'prod')).toEqual({ name: 'prod', hosts: [], children: ['web'] });

      service.state.body = '[web]\nweb2\nweb3\n';
      service.state.type = 'text/plain';
      expect(await sync(id)).toMatchObject({ error: null, hosts_added: ['web3'], hosts_removed: ['web1'] });

      service.state.body = 'all:\n  children:\n    db:\n      hosts:\n        db9: {}\n';
      expect(await sync(id)).toMatchObject({ error: null, hosts_added: ['db9'], hosts_removed: ['web2', 'web3'] });
      expect((await call('GET', `/inventory/${id}/hosts`)).body.hosts).toEqual([{ name: 'db9', groups: ['db'] }]);

      const syncs = await call('GET', `/inventory/${id}/syncs`);
      expect(syncs.status).toBe(200);
      expect(syncs.body.map((s: { hosts_added: string[] }) => s.hosts_added)).toEqual([['db9'], ['web3'], ['web1', 'web2']]);
    });

    it('records a failed url sync with the reason and keeps the last listing', async () => {
      const id = await addInventory({ name: 'Keyless URL', type: 'url', inventory: service.url });
      const failed = await sync(id);
      expect(failed).toMatchObject({ error: 'the inventory URL answered HTTP 401', host_count: null, hosts_added: [], hosts_removed: [] });
      const bad = await addInventory({ name: 'Garbled URL', type: 'url', inventory: service.url, source_key_id: tokenKey });
      service.state.body = '[web\nfoo bar=\n';
      const garbled = await sync(bad);
      expect(garbled.error.replace(/\s+/g, ' ')).toContain('No inventory was parsed');
      expect(garbled.error).not.toContain('signalbox-inventory-');
      service.state.body = LISTING;
    });

    it('runs a script inventory from the repository under the dynamic inventory contract', async () => {
      const id = await addInventory({ name: 'Cloud script', type: 'script', inventory: 'inventory/cloud.sh', repository_id: repositoryId });
      expect(await sync(id)).toMatchObject({ error: null, host_count: 2, hosts_added: ['db1', 'edge1'] });
      const hosts = await call('GET', `/inventory/${id}/hosts`);
      expect(hosts.body.hosts).toEqual([{ name: 'db1', groups: ['db', 'edge'] }, { name: 'edge1', groups: ['edge'] }]);
    });

    it('records a failing script with what Ansible printed', async () => {
      const id = await addInventory({ name: 'Broken script', type: 'script', inventory: 'inventory/broken.sh', repository_id: repositoryId });
      const failed = await sync(id);
      const said = failed.error.replace(/\s+/g, ' ');
      expect(said).toContain('no cloud credentials found');
      expect(said).toContain('inventory/broken.sh');
      expect(said).not.toContain(e.s.tmp);
    });

    it('refuses to sync an inventory with no source', async () => {
      const res = await call('POST', `/inventory/${fx.inventory.id}/sync`);
      expect(res.status).toBe(400);
    });

    it('syncs a url inventory on launch: the task runs on the hosts just read, and the sync names the task', async () => {
      service.state.body = LISTING;
      const id = await addInventory({ name: 'Launch URL', type: 'url', inventory: service.url, source_key_id: tokenKey });
      const templateId = (await insertTemplate(e.s.deps.db, fx.project.id, {
        name: 'Fleet', app: 'ansible', playbook: 'site.yml', repository_id: repositoryId, inventory_id: id, environment_id: fx.environment.id,
      })).id;
      const res = await call('POST', '/tasks', { template_id: templateId });
      expect(res.status, res.text).toBe(201);
      const done = await waitForTask(e.s.deps.db, res.body.id, undefined, 120_000);
      const log = (await taskLog(e.s.deps.db, res.body.id)).join('\n');
      expect(done.status, log).toBe('success');
      expect(log).toContain('ran on web1');
      expect(log).toContain('ran on web2');
      expect(log).not.toContain('inventory-token-7');
      const syncs = await call('GET', `/inventory/${id}/syncs`);
      expect(syncs.body[0]).toMatchObject({ task_id: res.body.id, error: null, host_count: 2 });
    }, 150_000);
  });
}
