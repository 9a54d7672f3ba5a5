import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { startTestServer, type Auth, type TestServer } from '../support/harness.ts';
import { buildWorld, type World } from '../support/world.ts';
import { insertProject } from '../support/fixtures.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { createHostServer, type HostServer } from '../../src/server/host/http-server.ts';
import { now } from '../../src/server/lib/time.ts';

/** The promise: a socket ends at most this long after what opened it ended. */
const CLOSES_WITHIN_MS = 1000;

interface Listener { socket: WebSocket; seen: Array<{ task_id: number }>; closed: Promise<number> }

/** Opens /api/ws as `auth` and records what arrives and when the socket closes. */
function listen(port: number, auth: Auth): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, { headers: auth });
    const seen: Array<{ task_id: number }> = [];
    const closed = new Promise<number>((done) => socket.once('close', () => done(performance.now())));
    socket.on('message', (data) => seen.push(JSON.parse(data.toString())));
    socket.once('open', () => resolve({ socket, seen, closed }));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

/**
 * Resolves with how long after `since` (when the change was answered) the socket closed;
 * Infinity when it is still open a little after the limit.
 */
async function closesAfter(listener: Listener, since: number): Promise<number> {
  const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), CLOSES_WITHIN_MS + 200));
  return (await Promise.race([listener.closed, timeout])) - since;
}

describe('websockets end when what opened them ends (issue 27, item 7)', () => {
  let s: TestServer;
  let host: HostServer;
  let port: number;
  let w: World;
  let otherProjectId: number;
  let taskId = 0;

  beforeAll(async () => {
    s = await startTestServer('sqlite');
    host = await createHostServer(s.deps);
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    port = (host.server.address() as AddressInfo).port;
  });
  beforeEach(async () => {
    w = await buildWorld(s.deps.db);
    otherProjectId = (await insertProject(s.deps.db, `Other ${w.projectId}`)).id;
  });
  afterAll(async () => {
    await host.close();
    await s.close();
  });

  const publish = (projectId: number) => {
    const id = ++taskId;
    s.deps.bus.publish({ type: 'log', project_id: projectId, task_id: id, time: new Date().toISOString(), output: `line of task ${id}` });
    return id;
  };
  const sessionOf = async (user: keyof World['users']): Promise<Auth> => ({ cookie: `semaphore=${await startSession(s.deps.db, w.users[user].id, 'test', 'vitest')}` });

  it('closes the socket within 1 s of signing out', async () => {
    const auth = await sessionOf('guest');
    const socket = await listen(port, auth);
    expect((await s.call('POST', '/api/auth/logout', undefined, auth)).status).toBe(204);
    const at = performance.now();
    expect(await closesAfter(socket, at)).toBeLessThan(CLOSES_WITHIN_MS);
  });

  it('closes the socket within 1 s of the session being revoked from another session', async () => {
    const victim = await sessionOf('guest');
    const socket = await listen(port, victim);
    const sessions = (await s.call('GET', '/api/user/sessions', undefined, w.auth.guest)).body as Array<{ id: string; current: boolean }>;
    const others = sessions.filter((x) => !x.current);
    for (const other of others) expect((await s.call('DELETE', `/api/user/sessions/${other.id}`, undefined, w.auth.guest)).status).toBe(204);
    const at = performance.now();
    expect(await closesAfter(socket, at)).toBeLessThan(CLOSES_WITHIN_MS);
  });

  it('closes every socket of a user within 1 s of an admin setting their password', async () => {
    const bySession = await listen(port, w.auth.manager);
    expect((await s.call('POST', `/api/users/${w.users.manager.id}/password`, { password: 'new-password-9' }, w.auth.admin)).status).toBe(204);
    const at = performance.now();
    expect(await closesAfter(bySession, at)).toBeLessThan(CLOSES_WITHIN_MS);
  });

  it('closes the sockets of a deleted user within 1 s, token and session alike', async () => {
    const bySession = await listen(port, w.auth.task_runner);
    const byToken = await listen(port, { authorization: `Bearer ${w.tokens.task_runner}` });
    expect((await s.call('DELETE', `/api/users/${w.users.task_runner.id}`, undefined, w.auth.admin)).status).toBe(204);
    const at = performance.now();
    expect(await closesAfter(bySession, at)).toBeLessThan(CLOSES_WITHIN_MS);
    expect(await closesAfter(byToken, at)).toBeLessThan(CLOSES_WITHIN_MS);
  });

  it('closes the sockets a deleted API token opened, and only those', async () => {
    const byToken = await listen(port, { authorization: `Bearer ${w.tokens.guest}` });
    const bySession = await listen(port, w.auth.guest);
    expect((await s.call('DELETE', `/api/user/tokens/${w.tokens.guest.slice(0, 8)}`, undefined, w.auth.guest)).status).toBe(204);
    const at = performance.now();
    expect(await closesAfter(byToken, at)).toBeLessThan(CLOSES_WITHIN_MS);
    const marker = publish(w.projectId);
    await expect.poll(() => bySession.seen.map((m) => m.task_id)).toContain(marker);
    bySession.socket.close();
  });

  it('stops sending other projects\' messages from the next message on once the admin flag is removed', async () => {
    await s.deps.db.insertInto('project_user').values({ project_id: w.projectId, user_id: w.users.admin.id, role: 'guest', created: now() }).execute();
    const demoted = await listen(port, w.auth.admin);
    const before = publish(otherProjectId);
    await expect.poll(() => demoted.seen.map((m) => m.task_id)).toContain(before);

    await s.deps.db.updateTable('user').set({ admin: 1 }).where('id', '=', w.users.spare.id).execute();
    const spare = { authorization: `Bearer ${w.tokens.spare}` };
    const user = (await s.call('GET', `/api/users/${w.users.admin.id}`, undefined, spare)).body;
    expect((await s.call('PUT', `/api/users/${w.users.admin.id}`, { ...user, admin: false }, spare)).status).toBe(204);
    const hidden = publish(otherProjectId);
    const visible = publish(w.projectId);
    await expect.poll(() => demoted.seen.map((m) => m.task_id)).toContain(visible);
    expect(demoted.seen.map((m) => m.task_id)).not.toContain(hidden);
    demoted.socket.close();
  });

  it('stops sending a project\'s messages from the next message on once the member is removed from it', async () => {
    await s.deps.db.insertInto('project_user').values({ project_id: otherProjectId, user_id: w.users.guest.id, role: 'guest', created: now() }).execute();
    const guest = await listen(port, w.auth.guest);
    const before = publish(w.projectId);
    await expect.poll(() => guest.seen.map((m) => m.task_id)).toContain(before);

    expect((await s.call('DELETE', `/api/project/${w.projectId}/users/${w.users.guest.id}`, undefined, w.auth.owner)).status).toBe(204);
    const hidden = publish(w.projectId);
    const visible = publish(otherProjectId);
    await expect.poll(() => guest.seen.map((m) => m.task_id)).toContain(visible);
    expect(guest.seen.map((m) => m.task_id)).not.toContain(hidden);
    guest.socket.close();
  });
});
