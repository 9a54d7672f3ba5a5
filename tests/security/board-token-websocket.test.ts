import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../support/harness.ts';
import { buildWorld, type World } from '../support/world.ts';
import { insertProject } from '../support/fixtures.ts';
import { createHostServer, type HostServer } from '../../src/server/host/http-server.ts';
import { createBoardToken } from '../../src/server/domain/board/board-token.repository.ts';

interface Listener { socket: WebSocket; seen: Array<{ type: string; project_id: number; task_id: number }>; closed: Promise<void> }

function listen(port: number, query: string): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws${query}`);
    const seen: Listener['seen'] = [];
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('message', (data) => seen.push(JSON.parse(data.toString())));
    socket.once('open', () => resolve({ socket, seen, closed }));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe('a board token on /api/ws', () => {
  let s: TestServer;
  let host: HostServer;
  let port: number;
  let w: World;
  let other: number;

  beforeAll(async () => {
    s = await startTestServer('sqlite');
    host = await createHostServer(s.deps);
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    port = (host.server.address() as AddressInfo).port;
    w = await buildWorld(s.deps.db);
    other = (await insertProject(s.deps.db, 'Not on the board')).id;
  });
  afterAll(async () => {
    await host.close();
    await s.close();
  });

  const update = (projectId: number, taskId: number) => s.deps.bus.publish({ type: 'update', project_id: projectId, task_id: taskId, template_id: 1, status: 'success', start: null, end: null, version: null });
  const log = (projectId: number, taskId: number) => s.deps.bus.publish({ type: 'log', project_id: projectId, task_id: taskId, time: new Date().toISOString(), output: 'secret line' });

  it('hears status changes of its projects only, never log lines', async () => {
    const { token } = await createBoardToken(s.deps.db, w.users.owner.id, { name: '', project_ids: [w.projectId], by: 'template', view_id: null });
    const listener = await listen(port, `?token=${token}`);
    await settle();
    update(w.projectId, 1);
    log(w.projectId, 2);
    update(other, 3);
    await settle();
    expect(listener.seen.map((m) => [m.type, m.task_id])).toEqual([['update', 1]]);
    listener.socket.close();
  });

  it('refuses an unknown token, and closes the socket on its own once its token is revoked', async () => {
    await expect(listen(port, '?token=sbb_unknown')).rejects.toThrow('401');
    const created = await createBoardToken(s.deps.db, w.users.owner.id, { name: '', project_ids: [w.projectId], by: 'template', view_id: null });
    const listener = await listen(port, `?token=${created.token}`);
    await s.deps.db.deleteFrom('board_token').where('id', '=', created.id).execute();
    // closed by the server with nothing sent to it (a generous bound: a busy machine is no failure)
    const closed = await Promise.race([listener.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000))]);
    expect(closed).toBe(true);
  });

  it('stops hearing a project its creator no longer belongs to', async () => {
    const { token } = await createBoardToken(s.deps.db, w.users.manager.id, { name: '', project_ids: [w.projectId], by: 'template', view_id: null });
    const listener = await listen(port, `?token=${token}`);
    await s.deps.db.deleteFrom('project_user').where('user_id', '=', w.users.manager.id).execute();
    await settle();
    update(w.projectId, 9);
    await settle();
    expect(listener.seen).toEqual([]);
    listener.socket.close();
  });
});
