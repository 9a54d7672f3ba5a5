import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type World } from '../support/world.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';

const OWNER_VAULT_TOKEN = 'owner-vault-token-5d1e';
const OWNER_GOTIFY_TOKEN = 'owner-gotify-token-9a7c';

/** A real listener that records everything it receives (request line, headers, body) as text. */
async function listener() {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"id":"x"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const dialect of DIALECTS) {
  describe(`a stored credential goes only where it was given (${dialect}, real HTTP and listeners)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: World;
    let home: Awaited<ReturnType<typeof listener>>;
    let attacker: Awaited<ReturnType<typeof listener>>;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      w = await buildWorld(server.s.deps.db);
      home = await listener();
      attacker = await listener();
    });
    afterAll(async () => {
      await home.close();
      await attacker.close();
      await server.close();
    });

    const call = async (caller: 'owner' | 'manager', method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api/project/${w.projectId}${path}`, {
        method, headers: { ...w.auth[caller], 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const leaked = (token: string) => attacker.received.filter((line) => line.includes(token));

    it('a secret storage: a manager who changes the url without the secret gets 400, and the test sends the owner\'s token nowhere new', async () => {
      const storage = { project_id: w.projectId, name: 'Owner vault', type: 'vault', params: { url: home.url, auth_method: 'token' } };
      const created = await call('owner', 'POST', '/secret_storages', { ...storage, secret: OWNER_VAULT_TOKEN });
      expect(created.status).toBe(201);
      const id = created.body.id as number;

      const moved = await call('manager', 'PUT', `/secret_storages/${id}`, { ...storage, id, params: { url: attacker.url, auth_method: 'token' } });
      expect(moved.status).toBe(400);
      expect(moved.body.error).toMatch(/^secret: required again/);
      await call('manager', 'POST', `/secret_storages/${id}/test`);
      expect(leaked(OWNER_VAULT_TOKEN)).toEqual([]);
      expect(attacker.received).toEqual([]);
      expect(home.received.some((line) => line.includes(OWNER_VAULT_TOKEN))).toBe(true);

      // a rename keeps the credential where it was; a new url with a secret of one's own sends only that
      expect((await call('manager', 'PUT', `/secret_storages/${id}`, { ...storage, id, name: 'Renamed' })).status).toBe(204);
      expect((await call('manager', 'GET', `/secret_storages/${id}`)).body.has_secret).toBe(true);
      const own = await call('manager', 'PUT', `/secret_storages/${id}`, { ...storage, id, params: { url: attacker.url, auth_method: 'token' }, secret: 'manager-own-token' });
      expect(own.status).toBe(204);
      await call('manager', 'POST', `/secret_storages/${id}/test`);
      expect(attacker.received.some((line) => line.includes('manager-own-token'))).toBe(true);
      expect(leaked(OWNER_VAULT_TOKEN)).toEqual([]);
    });

    it('a storage whose sign-in changes (token to AppRole at the same url) needs its secret again', async () => {
      const storage = { project_id: w.projectId, name: 'Sign-in vault', type: 'vault', params: { url: home.url, auth_method: 'token' } };
      const { body: { id } } = await call('owner', 'POST', '/secret_storages', { ...storage, secret: OWNER_VAULT_TOKEN });
      const changed = await call('manager', 'PUT', `/secret_storages/${id}`, { ...storage, id, params: { url: home.url, auth_method: 'approle', role_id: 'manager-role' } });
      expect(changed.status).toBe(400);
    });

    it('a Gotify channel: a new server_url without the token is refused, and the test posts nothing to it', async () => {
      const channel = { project_id: w.projectId, kind: 'gotify', name: 'Owner gotify', server_url: home.url };
      const created = await call('owner', 'POST', '/alert-channels', { ...channel, token: OWNER_GOTIFY_TOKEN });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const moved = await call('manager', 'PUT', `/alert-channels/${id}`, { ...channel, server_url: attacker.url });
      expect(moved.status).toBe(400);
      expect(moved.body.error).toBe('token: required');
      await call('manager', 'POST', `/alert-channels/${id}/test`);
      expect(leaked(OWNER_GOTIFY_TOKEN)).toEqual([]);
      expect(home.received.some((line) => line.includes(OWNER_GOTIFY_TOKEN))).toBe(true);
      // the same server keeps its token
      expect((await call('manager', 'PUT', `/alert-channels/${id}`, { ...channel, name: 'Renamed' })).status).toBe(204);
    });

    it('an event webhook: a new url drops the stored signing secret unless the request gives it again', async () => {
      const hook = { project_id: w.projectId, name: 'Owner hook', url: `${home.url}/events`, events: ['task_finished'] };
      const created = await call('owner', 'POST', '/event-webhooks', { ...hook, secret: 'owner-signing-secret' });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const secretSet = async () => (await call('manager', 'GET', `/event-webhooks/${id}`)).body.secret_set as boolean;
      expect((await call('manager', 'PUT', `/event-webhooks/${id}`, { ...hook, name: 'Renamed' })).status).toBe(204);
      expect(await secretSet()).toBe(true);
      expect((await call('manager', 'PUT', `/event-webhooks/${id}`, { ...hook, url: `${attacker.url}/events` })).status).toBe(204);
      expect(await secretSet()).toBe(false);
      const row = await server.s.deps.db.selectFrom('event_webhook').select('secret').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.secret).toBeNull();
    });
  });
}
