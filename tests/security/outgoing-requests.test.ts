import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type World } from '../support/world.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';
import { OUTGOING_FAILURES, restrictOutgoingAddresses, sendOutgoing } from '../../src/server/lib/outgoing-http.ts';
import { callRunnerWebhook } from '../../src/server/engine/remote/runner-webhook.ts';
import { loadConfig } from '../../src/server/config/config.ts';

/** A real HTTP listener on 127.0.0.1 that records what reaches it and answers `answer`. */
async function listener(answer: (res: import('node:http').ServerResponse) => void = (res) => res.end('{}')) {
  const received: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createHttpServer((req, res) => {
    received.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { received, port, url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const refusal = (url: string) => sendOutgoing(url, { method: 'POST', body: '{}', timeoutMs: 5000 }).then(() => 'answered', (err: Error) => err.message);

describe('the outgoing-HTTP client (real listeners)', () => {
  let target: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => { target = await listener(); });
  afterAll(async () => { await target.close(); });
  afterEach(() => restrictOutgoingAddresses('private'));

  it('follows no redirect, for the runner webhook as for every destination: a 3xx is the answer', async () => {
    const redirector = await listener((res) => res.writeHead(307, { location: `${target.url}/elsewhere` }).end());
    try {
      await callRunnerWebhook({ id: 1, webhook: `${redirector.url}/hook` }, { id: 2, project_id: 3, template_id: 4 }, 'start');
      expect((await sendOutgoing(`${redirector.url}/direct`, { timeoutMs: 5000 })).status).toBe(307);
      expect(redirector.received.map((r) => r.url)).toEqual(['/hook', '/direct']);
      expect(target.received.filter((r) => r.url === '/elsewhere')).toEqual([]);
    } finally {
      await redirector.close();
    }
  });

  it('refuses link-local, metadata and unspecified addresses by default, in every spelling, and reaches loopback', async () => {
    const { port } = target;
    const spellings = [
      'http://169.254.169.254/latest/meta-data/', 'http://2852039166/', 'http://0xa9.0xfe.0xa9.0xfe/', 'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/', 'http://[fd00:ec2::254]/', 'http://[fe80::1]/', 'http://100.100.100.200/',
      `http://0.0.0.0:${port}/`, `http://0:${port}/`, `http://[::]:${port}/`, `http://[::ffff:0.0.0.0]:${port}/`,
    ];
    const answers = await Promise.all(spellings.map(refusal));
    expect(answers).toEqual(spellings.map(() => OUTGOING_FAILURES.address));
    expect(target.received).toEqual([]);
    expect(await refusal(`http://127.0.0.1:${port}/loopback`)).toBe('answered');
    expect(target.received.map((r) => r.url)).toEqual(['/loopback']);
  });

  it('refuses loopback and private addresses under `public`, judged after DNS and in every spelling', async () => {
    restrictOutgoingAddresses('public');
    const { port } = target;
    const before = target.received.length;
    const spellings = [
      `http://127.0.0.1:${port}/`, `http://2130706433:${port}/`, `http://0x7f.1:${port}/`, `http://017700000001:${port}/`,
      `http://[::1]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`, `http://[64:ff9b::7f00:1]:${port}/`,
      `http://localhost:${port}/`, `http://10.1.2.3:${port}/`, `http://192.168.1.1:${port}/`, `http://172.16.0.1:${port}/`, `http://[fd12::1]:${port}/`,
    ];
    const answers = await Promise.all(spellings.map(refusal));
    expect(answers).toEqual(spellings.map(() => OUTGOING_FAILURES.address));
    expect(target.received.length).toBe(before);
  });

  it('is one setting, SEMAPHORE_OUTGOING_ADDRESSES or outgoing.addresses in config.json, private by default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-outgoing-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ outgoing: { addresses: 'public' } }));
    expect(loadConfig({}).outgoing_addresses).toBe('private');
    expect(loadConfig({}, { configPath: join(dir, 'config.json') }).outgoing_addresses).toBe('public');
    expect(loadConfig({ SEMAPHORE_OUTGOING_ADDRESSES: 'any' }).outgoing_addresses).toBe('any');
    expect(() => loadConfig({ SEMAPHORE_OUTGOING_ADDRESSES: 'everything' })).toThrow(/SEMAPHORE_OUTGOING_ADDRESSES/);
  });

  it('is the only place in src/server that sends HTTP, besides the server\'s own runner and console channels', () => {
    const root = fileURLToPath(new URL('../../src/server/', import.meta.url));
    // runners and the console talk to this server's own API, at an address its admin configured
    const ownChannels = ['lib/outgoing-http.ts', 'runner/runner-process.ts', 'cli/runner.command.ts', 'host/runner-api-client.ts', 'host/http-server.ts'];
    // the global fetch, not an in-process app's `api.fetch(`
    const sends = /(?<![.\w])fetch\(|\bhttps?\.(request|get)\(|import\s*\{[^}]*\b(request|get)\b[^}]*\}\s*from\s*'node:https?'|from 'undici'/;
    const senders = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && sends.test(readFileSync(join(root, file), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(senders.filter((file) => !ownChannels.includes(file))).toEqual([]);
    expect(senders).toContain('lib/outgoing-http.ts');
  });
});

for (const dialect of DIALECTS) {
  describe(`outgoing requests from the API (${dialect}, real HTTP and listeners)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: World;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      w = await buildWorld(server.s.deps.db);
    });
    afterAll(async () => {
      await server.close();
      restrictOutgoingAddresses('private');
    });

    const testStorage = async (url: string) => {
      const base = `${server.url}/api/project/${w.projectId}/secret_storages`;
      const headers = { ...w.auth.manager, 'content-type': 'application/json' };
      const created = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ name: 'Probe', type: 'vault', params: { url }, secret: 'probe-token' }) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      return (await (await fetch(`${base}/${id}/test`, { method: 'POST', headers })).json()) as { ok: boolean; error?: string };
    };

    it('a storage\'s test says the same for a closed port, a missing host and a service that speaks no HTTP', async () => {
      const closed = await listener();
      await closed.close();
      const sockets: import('node:net').Socket[] = [];
      const ssh = createTcpServer((socket) => {
        sockets.push(socket);
        socket.end('SSH-2.0-OpenSSH_9.6\r\n');
      });
      await new Promise<void>((resolve) => ssh.listen(0, '127.0.0.1', resolve));
      try {
        const answers = [];
        for (const url of [closed.url, 'http://no-such-host.invalid', `http://127.0.0.1:${(ssh.address() as AddressInfo).port}`]) {
          answers.push(await testStorage(url));
        }
        expect(answers).toEqual(answers.map(() => ({ ok: false, error: `Probe: ${OUTGOING_FAILURES.unreachable}` })));
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => ssh.close(() => resolve()));
      }
    });

    it('a storage at a metadata address is refused before any connection, with the address text', async () => {
      expect(await testStorage('http://[::ffff:169.254.169.254]')).toEqual({ ok: false, error: `Probe: ${OUTGOING_FAILURES.address}` });
    });
  });

  describe(`SEMAPHORE_OUTGOING_ADDRESSES=public (${dialect}, real HTTP and listeners)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: World;
    let vault: Awaited<ReturnType<typeof listener>>;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect, { SEMAPHORE_OUTGOING_ADDRESSES: 'public' });
      w = await buildWorld(server.s.deps.db);
      vault = await listener();
    });
    afterAll(async () => {
      await vault.close();
      await server.close();
      restrictOutgoingAddresses('private');
    });

    it('a storage on this machine is never contacted: its token stays home', async () => {
      const base = `${server.url}/api/project/${w.projectId}/secret_storages`;
      const headers = { ...w.auth.manager, 'content-type': 'application/json' };
      const created = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ name: 'Local', type: 'vault', params: { url: `http://localhost:${vault.port}` }, secret: 'owner-vault-token' }) });
      const { id } = (await created.json()) as { id: number };
      const answer = await (await fetch(`${base}/${id}/test`, { method: 'POST', headers })).json();
      expect(answer).toEqual({ ok: false, error: `Local: ${OUTGOING_FAILURES.address}` });
      expect(vault.received).toEqual([]);
    });
  });
}
