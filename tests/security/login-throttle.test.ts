import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { realBcrypt } from '../support/real-bcrypt.ts';

// the timing test below compares the real costs of bcrypt, not remembered answers
realBcrypt();

/** POST /api/auth/login over a real socket, with extra headers; resolves with the status and time taken. */
async function signIn(server: ConsoleServer, auth: string, password: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ auth, password }),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('sign-in throttle without trusted proxies (real HTTP)', () => {
  let server: ConsoleServer;
  afterAll(async () => { await server?.close(); });

  it('ignores a rotating X-Real-IP from an untrusted peer: spraying user names is throttled', async () => {
    server = await startConsoleServer();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await signIn(server, `nobody-${i}`, 'guess', { 'x-real-ip': `10.1.0.${i}`, 'x-forwarded-for': `10.2.0.${i}` })).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    // past 20 failures the address keeps one free try per name: a second guess waits, whatever the headers say
    expect((await signIn(server, 'nobody-20', 'guess-2', { 'x-real-ip': '10.1.0.99', 'x-forwarded-for': '10.2.0.99' })).status).toBe(429);
    // and a right password for an account not tried from there still signs in
    expect((await signIn(server, ADMIN.login, ADMIN.password, { 'x-real-ip': '10.1.0.98' })).status).toBe(204);
  });

});

// Its own server: on the one above the address is already throttled, and a 429 answers at once
// for both kinds of name, which would time the throttle instead of the password check.
describe('sign-in timing (real HTTP)', () => {
  let server: ConsoleServer;
  afterAll(async () => { await server?.close(); });

  it('takes as long for an unknown user name as for a wrong password (no account discovery by timing)', async () => {
    server = await startConsoleServer();
    const unknown: { status: number; ms: number }[] = [];
    const wrong: { status: number; ms: number }[] = [];
    for (let i = 0; i < 5; i++) {
      unknown.push(await signIn(server, `ghost-${i}`, 'guess', {}));
      wrong.push(await signIn(server, ADMIN.login, `wrong-${i}`, {}));
    }
    expect([...unknown, ...wrong].map((r) => r.status)).toEqual(Array(10).fill(401));
    expect(median(unknown.map((r) => r.ms))).toBeGreaterThan(median(wrong.map((r) => r.ms)) * 0.5);
  });
});

describe('sign-in throttle behind a trusted proxy (real HTTP)', () => {
  let server: ConsoleServer;
  afterAll(async () => { await server?.close(); });

  it('counts failures per client address, so an attacker cannot lock the user out of their own address', async () => {
    server = await startConsoleServer({ SEMAPHORE_TRUSTED_PROXIES: '127.0.0.1/32, ::1' });
    const attacker = { 'x-forwarded-for': '203.0.113.66' };
    const attempts: number[] = [];
    for (let i = 0; i < 8; i++) attempts.push((await signIn(server, ADMIN.login, `wrong-${i}`, attacker)).status);
    expect(attempts.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(attempts.slice(5)).toEqual([429, 429, 429]);
    expect((await signIn(server, ADMIN.login, ADMIN.password, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(204);
    expect((await signIn(server, ADMIN.login, ADMIN.password, attacker)).status).toBe(429);
  });
});
