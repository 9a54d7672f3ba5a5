import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { createClient } from '../console/support/http-client.ts';

/** Names every plain object inherits: a look-up keyed by one of them must find nothing. */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

describe('inputs named like Object.prototype members (real HTTP, built console)', () => {
  let server: ConsoleServer;
  let client: ReturnType<typeof createClient>;
  let projectId: number;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method, headers: { cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  };

  beforeAll(async () => {
    server = await startConsoleServer();
    client = createClient(server.url);
    await client.signIn();
    projectId = (await api('POST', '/api/projects', { name: 'Prototype names' })).json().id;
  });
  afterAll(async () => { await server?.close(); });

  it('lists project members and inventories for ?sort= and ?app= named like prototype members', async () => {
    const answers = [];
    for (const name of PROTOTYPE_NAMES) {
      const users = await api('GET', `/api/project/${projectId}/users?sort=${name}&order=desc`);
      const inventory = await api('GET', `/api/project/${projectId}/inventory?app=${name}`);
      answers.push({ name, users: users.status, inventory: inventory.status });
    }
    expect(answers).toEqual(PROTOTYPE_NAMES.map((name) => ({ name, users: 200, inventory: 200 })));
  });

  it('takes an empty body on PUT /api/project/{id}/runners/{runner_id} as "change nothing"', async () => {
    const runner = (await api('POST', `/api/project/${projectId}/runners`, { name: 'Edge', registered: false })).json();
    expect((await api('PUT', `/api/project/${projectId}/runners/${runner.id}`, {})).status).toBe(204);
    expect((await api('GET', `/api/project/${projectId}/runners/${runner.id}`)).json().name).toBe('Edge');
  });

  it('never lets a runner body key named __PROTO__ become the prototype its fields are read from', async () => {
    const runner = (await api('POST', `/api/project/${projectId}/runners`, { name: 'Poller' })).json();
    const res = await fetch(`${server.url}/api/internal/runners`, {
      method: 'PUT', headers: { 'x-runner-token': runner.token, 'content-type': 'application/json' }, body: '{"__PROTO__":{"jobs":[]}}',
    });
    expect([res.status, await res.text()]).toEqual([400, JSON.stringify({ error: 'jobs: Invalid input: expected array, received undefined' })]);
  });

  it('refuses cron expressions named like prototype members with 400', async () => {
    const key = (await api('POST', `/api/project/${projectId}/keys`, { name: 'None', type: 'none' })).json();
    const repo = (await api('POST', `/api/project/${projectId}/repositories`, { name: 'R', git_url: '/srv/r', git_branch: 'main', ssh_key_id: key.id })).json();
    const inventory = (await api('POST', `/api/project/${projectId}/inventory`, { name: 'H', type: 'static', inventory: 'localhost', ssh_key_id: key.id })).json();
    const template = (await api('POST', `/api/project/${projectId}/templates`, {
      name: 'T', app: 'ansible', playbook: 'site.yml', repository_id: repo.id, inventory_id: inventory.id,
      survey_vars: [{ name: 'toString', title: 'Version', type: 'int', required: true }],
    })).json();
    expect(template.id, JSON.stringify(template)).toBeTypeOf('number');
    for (const name of PROTOTYPE_NAMES) {
      const res = await api('POST', `/api/project/${projectId}/schedules`, { name: 'S', template_id: template.id, cron_format: name, active: true });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
    }
    // a required survey answer named `toString` is missing, not Object.prototype.toString
    const task = await api('POST', `/api/project/${projectId}/tasks`, { template_id: template.id, environment: '{}' });
    expect([task.status, task.text]).toEqual([400, JSON.stringify({ error: 'Version is required' })]);
  });

  it('answers console pages with an id beyond the id columns with the not-found page', async () => {
    for (const path of [
      `/project/${projectId}/integrations/99999999999999999999`, `/project/99999999999999999999/history`,
      `/project/${projectId}/templates/99999999999999999999`, `/project/${projectId}/views/4294967296/templates`,
      `/users/99999999999999999999/edit`, `/project/${projectId}/integrations/1e3`,
    ]) {
      const res = await client.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
});
