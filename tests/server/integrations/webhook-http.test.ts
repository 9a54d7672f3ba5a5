import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertIntegration, listTasks } from '../../support/trigger-fixtures.ts';
import { createHostServer, type HostServer } from '../../../src/server/host/http-server.ts';

describe('incoming webhooks over real HTTP (sqlite)', () => {
  let server: TestServer;
  let host: HostServer;
  let base: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    host = await createHostServer(server.deps);
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => { await host.close(); await server.close(); });

  it('starts a task from a signed push and survives a 10 MB body', async () => {
    const fixture = await insertAdminProject(server);
    const secret = { login: 'x', password: 'http-secret' };
    const { alias } = await insertIntegration(server, fixture.project.id, fixture.template.id, {
      auth_method: 'github', secret, values: [{ value_source: 'body', key: 'ref', variable: 'REF' }],
    });
    const huge = await fetch(`${base}/api/integrations/${alias}`, { method: 'POST', body: 'x'.repeat(10 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);

    const body = JSON.stringify({ ref: 'refs/heads/main' });
    const signature = `sha256=${createHmac('sha256', secret.password).update(body).digest('hex')}`;
    const res = await fetch(`${base}/api/integrations/${alias}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'X-Hub-Signature-256': signature } });
    expect(res.status).toBe(204);
    const tasks = await listTasks(server.deps.db, fixture.project.id);
    expect(tasks).toHaveLength(1);
    expect(JSON.parse(tasks[0]!.environment)).toEqual({ REF: 'refs/heads/main' });
  });
});
