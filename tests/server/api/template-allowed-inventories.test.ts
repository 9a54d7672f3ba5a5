import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { createApiWorld, type ApiWorld } from '../../support/api-world.ts';

// The inventories a template lets a start choose (issue 50 item 6): `allowed_inventories`,
// empty = any; every start path is tried by the launch matrix.
for (const dialect of DIALECTS) {
  describe(`allowed inventories per template (${dialect})`, () => {
    let s: TestServer;
    let w: ApiWorld;
    let staging: number;
    let production: number;
    const call = (method: string, path: string, body?: unknown) => s.call(method, `${w.base}${path}`, body, w.admin);
    const inventory = async (name: string) => (await call('POST', '/inventory', { name, type: 'static', inventory: 'localhost', ssh_key_id: w.ids.key_id })).body.id as number;
    const template = (extra: Record<string, unknown>) => call('POST', '/templates', {
      name: `Pick ${Math.random().toString(36).slice(2, 8)}`, app: 'ansible', playbook: 'site.yml', repository_id: w.ids.repository_id,
      inventory_id: w.ids.inventory_id, task_params: { allow_override_inventory: true }, ...extra,
    });

    beforeAll(async () => {
      s = await startTestServer(dialect);
      w = await createApiWorld(s);
      staging = await inventory('Staging');
      production = await inventory('Production');
    });
    afterAll(async () => { await s?.close(); });

    it('stores the list, answers it on every read, keeps it when a PUT leaves it out and clears it with []', async () => {
      const created = await template({ allowed_inventories: [production, staging] });
      expect(created.status, created.text).toBe(201);
      expect(created.body.allowed_inventories).toEqual([staging, production].sort((a, b) => a - b));
      const read = (await call('GET', `/templates/${created.body.id}`)).body;
      expect(read.allowed_inventories).toEqual(created.body.allowed_inventories);
      expect((await call('GET', '/templates')).body.find((t: { id: number }) => t.id === created.body.id).allowed_inventories).toEqual(read.allowed_inventories);
      expect((await call('PUT', `/templates/${read.id}`, { ...read, allowed_inventories: undefined, description: 'kept' })).status).toBe(204);
      expect((await call('GET', `/templates/${read.id}`)).body.allowed_inventories).toEqual(read.allowed_inventories);
      expect((await call('PUT', `/templates/${read.id}`, { ...read, allowed_inventories: [] })).status).toBe(204);
      expect((await call('GET', `/templates/${read.id}`)).body.allowed_inventories).toEqual([]);
      // a template from before lists none: any
      expect((await call('GET', `/templates/${w.ids.template_id}`)).body.allowed_inventories).toEqual([]);
    });

    it('refuses inventories of another project, twice listed or not ids, with 400 and nothing written', async () => {
      const other = await s.call('POST', '/api/projects', { name: `Other ${dialect}` }, w.admin);
      const key = (await s.call('POST', `/api/project/${other.body.id}/keys`, { name: 'None', type: 'none' }, w.admin)).body.id;
      const foreign = (await s.call('POST', `/api/project/${other.body.id}/inventory`, { name: 'Theirs', type: 'static', inventory: 'x', ssh_key_id: key }, w.admin)).body.id;
      const refused = async (allowed_inventories: unknown) => {
        const res = await template({ name: 'Refused', allowed_inventories });
        return [res.status, res.body.error];
      };
      expect(await refused([foreign])).toEqual([400, `allowed_inventories: no inventory ${foreign} in this project`]);
      expect(await refused([staging, staging])).toEqual([400, 'allowed_inventories: an inventory is listed twice']);
      expect(await refused(['one'])).toEqual([400, expect.stringMatching(/^allowed_inventories/)]);
      expect(await refused('1,2')).toEqual([400, expect.stringMatching(/^allowed_inventories/)]);
      expect((await call('GET', '/templates')).body.some((t: { name: string }) => t.name === 'Refused')).toBe(false);
    });

    it('starts only with an inventory of the list or the template\'s own; another is 400 even where overriding is off', async () => {
      const tpl = (await template({ allowed_inventories: [staging] })).body;
      const start = (body: Record<string, unknown>) => call('POST', '/tasks', { template_id: tpl.id, ...body });
      const chosen = await start({ inventory_id: staging });
      expect(chosen.status, chosen.text).toBe(201);
      expect(chosen.body.inventory_id).toBe(staging);
      expect((await start({ inventory_id: w.ids.inventory_id })).status).toBe(201);
      expect((await start({})).status).toBe(201);
      const outside = await start({ inventory_id: production });
      expect([outside.status, outside.body.error]).toEqual([400, `inventory_id: inventory ${production} is not one of the inventories this template allows`]);
      await call('PUT', `/templates/${tpl.id}`, { ...tpl, task_params: {} });
      expect((await start({ inventory_id: production })).status).toBe(400);
    });

    it('keeps the list in backups by inventory name and restores it', async () => {
      await template({ name: 'Backed up', allowed_inventories: [production, staging] });
      const backup = (await call('GET', '/backup')).body;
      const tpl = backup.templates.find((t: { name: string }) => t.name === 'Backed up');
      expect(tpl.allowed_inventories).toEqual(['Production', 'Staging']);
      expect(backup.templates.find((t: { name: string; allowed_inventories?: string[] }) => t.name !== 'Backed up' && !t.allowed_inventories)).toBeDefined();
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: `Restored ${dialect}` } }, w.admin);
      expect(restored.status, restored.text).toBe(200);
      const base = `/api/project/${restored.body.id}`;
      const inventories = (await s.call('GET', `${base}/inventory`, undefined, w.admin)).body as { id: number; name: string }[];
      const again = (await s.call('GET', `${base}/templates`, undefined, w.admin)).body.find((t: { name: string }) => t.name === 'Backed up');
      const ids = inventories.filter((i) => i.name === 'Production' || i.name === 'Staging').map((i) => i.id).sort((x, y) => x - y);
      expect(again.allowed_inventories).toEqual(ids);
      const misnamed = { ...backup, meta: { ...backup.meta, name: 'Broken' }, templates: backup.templates.map((t: { name: string }) => (t.name === 'Backed up' ? { ...t, allowed_inventories: ['Nope'] } : t)) };
      const res = await s.call('POST', '/api/projects/restore', misnamed, w.admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('Nope');
    });

    it('keeps a listed inventory in use: its refs name the template, deleting it is refused', async () => {
      const spare = await inventory('Spare');
      const tpl = (await template({ name: 'Uses spare', allowed_inventories: [spare] })).body;
      expect((await call('GET', `/inventory/${spare}/refs`)).body.templates).toEqual([{ id: tpl.id, name: 'Uses spare' }]);
      const del = await call('DELETE', `/inventory/${spare}`);
      expect([del.status, del.body.inUse]).toEqual([400, true]);
      expect((await call('DELETE', `/templates/${tpl.id}`)).status).toBe(204);
      expect((await call('DELETE', `/inventory/${spare}`)).status).toBe(204);
    });
  });
}
