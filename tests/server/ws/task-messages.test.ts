import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createHostServer, type HostServer } from '../../../src/server/host/http-server.ts';
import { startEngine, type Engine } from '../../../src/server/engine/engine.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';

describe('websocket /api/ws during a task (sqlite)', () => {
  let s: TestServer;
  let host: HostServer;
  let engine: Engine;
  let base: string;

  beforeAll(async () => {
    s = await startTestServer('sqlite');
    engine = await startEngine(s.deps);
    host = await createHostServer(s.deps);
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(host.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await engine.stop();
    await host.close();
    await s.close();
  });

  it('streams update and log messages of a running task to a signed-in client', async () => {
    const dir = join(s.tmp, 'scripts');
    mkdirSync(dir);
    writeFileSync(join(dir, 'talk.sh'), 'echo "first line"\necho "second line"\n');
    const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, gitUrl: dir, playbook: 'talk.sh' });
    const login = await fetch(`http://${base}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const socket = new WebSocket(`ws://${base}/api/ws`, { headers: { cookie } });
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    const messages: Record<string, unknown>[] = [];
    const finished = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString());
        messages.push(message);
        if (message.type === 'update' && message.status === 'success') resolve();
      });
    });
    const created = await fetch(`http://${base}/api/project/${fx.project.id}/tasks`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ template_id: fx.template.id }),
    });
    const { id } = (await created.json()) as { id: number };
    await finished;
    await new Promise((r) => setTimeout(r, 100));
    socket.close();
    const mine = messages.filter((m) => m.task_id === id);
    expect(mine.filter((m) => m.type === 'update').map((m) => m.status)).toEqual(['waiting', 'starting', 'running', 'success']);
    expect(mine.find((m) => m.type === 'update' && m.status === 'success')).toMatchObject({ project_id: fx.project.id, template_id: fx.template.id, version: null });
    const logs = mine.filter((m) => m.type === 'log');
    expect(logs.map((m) => m.output)).toEqual(expect.arrayContaining(['first line', 'second line']));
    expect(logs[0]).toMatchObject({ type: 'log', project_id: fx.project.id, task_id: id });
  });
});
