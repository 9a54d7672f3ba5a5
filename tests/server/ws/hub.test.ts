import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import { createHostServer, type HostServer } from '../../../src/server/host/http-server.ts';

/** Opens /api/ws with the given headers; resolves with the socket or the refusal status. */
function connect(port: number, headers: Record<string, string>): Promise<{ socket?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, { headers });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    socket.once('error', () => resolve({ status: -1 }));
  });
}

function collect(socket: WebSocket): unknown[] {
  const seen: unknown[] = [];
  socket.on('message', (data) => seen.push(JSON.parse(data.toString())));
  return seen;
}

describe('websocket /api/ws', () => {
  let s: TestServer;
  let host: HostServer;
  let port: number;
  let w: World;

  beforeAll(async () => {
    s = await startTestServer('sqlite');
    host = await createHostServer(s.deps);
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    port = (host.server.address() as AddressInfo).port;
    w = await buildWorld(s.deps.db);
  });
  afterAll(async () => {
    await host.close();
    await s.close();
  });

  it('refuses an upgrade without a session or token with 401', async () => {
    const { status, socket } = await connect(port, {});
    expect(socket).toBeUndefined();
    expect(status).toBe(401);
  });

  it('sends task messages of a project to its members and to admins only', async () => {
    const guest = await connect(port, w.auth.guest);
    const outsider = await connect(port, w.auth.non_member);
    const admin = await connect(port, w.auth.admin);
    const byToken = await connect(port, w.auth.bearer);
    const seen = [guest, outsider, admin, byToken].map((c) => collect(c.socket!));
    await new Promise((r) => setTimeout(r, 50));

    const update = { type: 'update' as const, project_id: w.projectId, task_id: 7, template_id: 1, status: 'running', start: null, end: null, version: null };
    const log = { type: 'log' as const, project_id: w.projectId, task_id: 7, time: new Date().toISOString(), output: 'hello' };
    s.deps.bus.publish(update);
    s.deps.bus.publish(log);
    await expect.poll(() => seen[0]!.length).toBe(2);
    await expect.poll(() => seen[2]!.length).toBe(2);
    await expect.poll(() => seen[3]!.length).toBe(2);

    expect(seen[0]).toEqual([update, log]);
    expect(seen[1]).toEqual([]);
    for (const c of [guest, outsider, admin, byToken]) c.socket!.close();
  });

  it('deflates messages of 1 KB and more when the client offers permessage-deflate, and sends smaller ones as they are', async () => {
    const admin = await connect(port, w.auth.admin);
    const socket = admin.socket!;
    expect(socket.extensions).toContain('permessage-deflate');
    const seen = collect(socket);
    let wireBytes = 0;
    (socket as unknown as { _socket: import('node:net').Socket })._socket.on('data', (chunk: Buffer) => { wireBytes += chunk.length; });
    const log = (output: string) => ({ type: 'log' as const, project_id: w.projectId, task_id: 8, time: new Date().toISOString(), output });

    const small = log('ok: [localhost]');
    s.deps.bus.publish(small);
    await expect.poll(() => seen.length).toBe(1);
    expect(wireBytes).toBeGreaterThanOrEqual(JSON.stringify(small).length);

    wireBytes = 0;
    const large = log('TASK [install packages] '.repeat(400));
    s.deps.bus.publish(large);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[1]).toEqual(large);
    expect(wireBytes).toBeLessThan(JSON.stringify(large).length / 10);
    socket.close();
  });
});
