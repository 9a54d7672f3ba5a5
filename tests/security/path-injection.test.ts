import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { adminApi, insertScriptProject, waitForTask } from '../console/support/real-tasks.ts';

let server: ConsoleServer;
let api: Awaited<ReturnType<typeof adminApi>>;
let fixture: Awaited<ReturnType<typeof insertScriptProject>>;

beforeAll(async () => {
  server = await startConsoleServer();
  api = await adminApi(server);
  fixture = await insertScriptProject(server, { 'run.sh': 'echo fine\n' }, 'run.sh');
});
afterAll(async () => { await server?.close(); });

const send = async (method: string, path: string, body: unknown) => {
  const res = await fetch(server.url + path, { method, headers: { cookie: api.cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null) as { error?: string } | null };
};

describe('paths that would become options or leave the checkout (real HTTP, real engine)', () => {
  it('refuses playbook "-c", absolute and escaping paths when a template is saved', async () => {
    const base = { name: 'Evil', app: 'bash', repository_id: fixture.repository.id, inventory_id: fixture.template.inventory_id, environment_id: fixture.template.environment_id };
    const cases: [Record<string, unknown>, string][] = [
      [{ playbook: '-c', arguments: '["touch /tmp/owned"]' }, 'playbook: must not start with "-"'],
      [{ playbook: '/etc/passwd' }, 'playbook: must be a path relative to the repository'],
      [{ playbook: 'scripts/../../../../etc/passwd' }, 'playbook: must stay inside the repository'],
      [{ app: 'ansible', playbook: 'site.yml', vaults: [{ name: 'x', type: 'script', script: '/tmp/evil-client' }] }, 'vaults[0].script: must be a path relative to the repository'],
      [{ app: 'terraform', playbook: '../other-checkout' }, 'playbook: must stay inside the repository'],
    ];
    for (const [fields, error] of cases) {
      expect(await send('POST', `/api/project/${fixture.project.id}/templates`, { ...base, ...fields })).toEqual({ status: 400, body: { error } });
    }
    const inventory = await send('POST', `/api/project/${fixture.project.id}/inventory`, {
      name: 'Evil file', type: 'file', inventory: '-i/etc/shadow', ssh_key_id: (await server.deps.db.selectFrom('access_key').select('id').where('project_id', '=', fixture.project.id).executeTakeFirstOrThrow()).id,
    });
    expect(inventory).toEqual({ status: 400, body: { error: 'inventory: must not start with "-"' } });
  });

  it('refuses at run time a playbook "-c" already in the database: the task fails and its command never runs', async () => {
    const marker = join(server.tmp, 'owned');
    await server.deps.db.updateTable('template').set({ playbook: '-c', arguments: JSON.stringify([`touch ${marker}`]) }).where('id', '=', fixture.template.id).execute();
    const taskId = await api.runTask(fixture.project.id, { template_id: fixture.template.id });
    const task = await waitForTask(server.deps.db, taskId);
    expect(task.status).toBe('error');
    expect(existsSync(marker)).toBe(false);
    const output = await server.deps.db.selectFrom('task_output').select('output').where('task_id', '=', taskId).execute();
    expect(output.map((o) => o.output).join('\n')).toContain('playbook "-c" must not start with "-"');
  });
});
