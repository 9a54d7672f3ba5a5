import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN, startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { enrolConfirmedTotp } from '../support/totp.ts';
import { findUserByLogin } from '../../src/server/domain/users/user.repository.ts';

/** The answer to a websocket upgrade: 101 when it opened, else the refusal status. */
function upgradeStatus(url: string, cookie: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/api/ws`, { headers: { cookie } });
    socket.once('open', () => { socket.close(); resolve(101); });
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', () => resolve(-1));
  });
}

describe('a session that passed the password but not the TOTP step (issue 27, item 9)', () => {
  let server: ConsoleServer;
  let pending: string;

  beforeAll(async () => {
    server = await startConsoleServer({ SEMAPHORE_TOTP_ENABLED: 'true', SEMAPHORE_METRICS_ENABLED: 'true' });
    const { db, secrets, config } = server.deps;
    await enrolConfirmedTotp(db, (await findUserByLogin(db, ADMIN.login))!, secrets, config.totp);
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
    });
    expect(res.status).toBe(204);
    pending = res.headers.getSetCookie().find((c) => c.startsWith('semaphore='))!.split(';')[0]!;
  });
  afterAll(async () => { await server?.close(); });

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie: pending }, redirect: 'manual' });

  it('is refused by /api/metrics, though its user is an admin', async () => {
    const res = await get('/api/metrics');
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain('signalbox_');
  });

  it('is refused by the API routes and the websocket alike', async () => {
    for (const path of ['/api/user', '/api/info', '/api/projects', '/api/users']) expect([path, (await get(path)).status]).toEqual([path, 401]);
    expect(await upgradeStatus(server.url, pending)).toBe(401);
  });

  it('is sent to the second step by the console instead of seeing a page', async () => {
    const res = await get('/');
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
    expect(res.headers.get('location')).toMatch(/^\/auth\/login/);
  });
});
