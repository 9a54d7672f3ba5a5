import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';

/** The session cookie's Set-Cookie line from the API sign-in and from the console's sign-in form. */
async function sessionCookies(server: ConsoleServer, headers: Record<string, string>): Promise<{ api: string; form: string }> {
  const api = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
  });
  const form = await fetch(`${server.url}/auth/login?next=/`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ step: 'password', auth: ADMIN.login, password: ADMIN.password }).toString(),
  });
  const pick = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('semaphore=')) ?? `none (${res.status})`;
  return { api: pick(api), form: pick(form) };
}

const isSecure = (cookie: string) => /;\s*secure\b/i.test(cookie);

describe('the session cookie behind TLS (real HTTP)', () => {
  let server: ConsoleServer | undefined;
  afterEach(async () => { await server?.close(); server = undefined; });

  it('is Secure on the API and the sign-in form when a trusted proxy says https', async () => {
    server = await startConsoleServer({ SEMAPHORE_TRUSTED_PROXIES: '127.0.0.1,::1' });
    const { api, form } = await sessionCookies(server, { 'x-forwarded-proto': 'https' });
    expect([isSecure(api), isSecure(form)], `${api} | ${form}`).toEqual([true, true]);
    const plain = await sessionCookies(server, {});
    expect([isSecure(plain.api), isSecure(plain.form)]).toEqual([false, false]);
  });

  it('is Secure on both when SEMAPHORE_WEB_ROOT is https', async () => {
    server = await startConsoleServer({ SEMAPHORE_WEB_ROOT: 'https://ops.example.test' });
    const { api, form } = await sessionCookies(server, {});
    expect([isSecure(api), isSecure(form)], `${api} | ${form}`).toEqual([true, true]);
  });

  it('ignores X-Forwarded-Proto from a peer that is not a trusted proxy', async () => {
    server = await startConsoleServer();
    const { api, form } = await sessionCookies(server, { 'x-forwarded-proto': 'https' });
    expect(api).toMatch(/^semaphore=/);
    expect(form).toMatch(/^semaphore=/);
    expect([isSecure(api), isSecure(form)]).toEqual([false, false]);
  });
});
