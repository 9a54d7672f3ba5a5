import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { createHostServer, type HostServer } from '../../../src/server/host/http-server.ts';
import { createRunnerApi } from '../../../src/server/host/runner-api-client.ts';

async function listen(host: HostServer): Promise<number> {
  await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
  return (host.server.address() as AddressInfo).port;
}

describe('console pointed at a remote runner API (SIGNALBOX_API_URL)', () => {
  let runner: TestServer;
  let consoleSide: TestServer;
  let runnerHost: HostServer;
  let consoleHost: HostServer;
  let consolePort: number;

  beforeAll(async () => {
    runner = await startTestServer('sqlite');
    runnerHost = await createHostServer(runner.deps);
    const runnerPort = await listen(runnerHost);
    consoleSide = await startTestServer('sqlite', { SIGNALBOX_API_URL: `http://127.0.0.1:${runnerPort}` });
    consoleHost = await createHostServer(consoleSide.deps);
    consolePort = await listen(consoleHost);
  });
  afterAll(async () => {
    await consoleHost.close();
    await runnerHost.close();
    await consoleSide.close();
    await runner.close();
  });

  it('forwards API calls, with the session, to the remote runner API', async () => {
    const base = `http://127.0.0.1:${consolePort}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
    });
    expect(login.status).toBe(204);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const created = await fetch(`${base}/api/projects`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Remote' }) });
    expect(created.status).toBe(201);

    const onRunner = await runner.deps.db.selectFrom('project').select('name').execute();
    const onConsole = await consoleSide.deps.db.selectFrom('project').select('name').execute();
    expect(onRunner.map((p) => p.name)).toEqual(['Remote']);
    expect(onConsole).toEqual([]);
  });

  it('reads answers of the remote runner API as JSON (the console\'s runnerApi.read): no objects to hand over there', async () => {
    const auth = await runner.login(ADMIN.login, ADMIN.password);
    const remote = createRunnerApi(consoleSide.api, consoleSide.deps.config.api_url);
    const user = await remote.read('/api/user', { headers: auth });
    expect([user.status, (user.body as { username: string }).username]).toEqual([200, ADMIN.login]);
    const refused = await remote.read('/api/project/999999', { headers: auth });
    expect([refused.status, refused.ok]).toEqual([404, false]);
    expect((await remote.read('/api/user')).status).toBe(401);
  });

  it('relays the websocket to the remote runner API', async () => {
    const auth = await runner.login(ADMIN.login, ADMIN.password);
    const socket = new WebSocket(`ws://127.0.0.1:${consolePort}/api/ws`, { headers: auth });
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    const seen: unknown[] = [];
    socket.on('message', (data) => seen.push(JSON.parse(data.toString())));
    await expect.poll(() => runnerHost.hub.clientCount).toBe(1);
    const log = { type: 'log' as const, project_id: 1, task_id: 1, time: new Date().toISOString(), output: 'relayed' };
    runner.deps.bus.publish(log);
    await expect.poll(() => seen).toEqual([log]);
    socket.close();
  });
});
