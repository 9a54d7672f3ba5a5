import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendRaw, startServerProcess, type ServerProcess } from '../support/raw-server.ts';

/** Request lines and headers an attacker can send without signing in. */
const HOSTILE: [string, string][] = [
  ['a lone percent', 'GET /% HTTP/1.1\r\nHost: x\r\n'],
  ['a broken escape in an asset path', 'GET /%E0%A4%A.js HTTP/1.1\r\nHost: x\r\n'],
  ['a broken escape in a page path', 'GET /project/%E0%A4%A/history HTTP/1.1\r\nHost: x\r\n'],
  ['a broken escape under /_astro', 'GET /_astro/%ff%.js HTTP/1.1\r\nHost: x\r\n'],
  ['a broken escape in the API', 'GET /api/project/%/templates HTTP/1.1\r\nHost: x\r\n'],
  ['a broken escape in a webhook alias', 'POST /api/integrations/% HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'],
  ['a broken escape in the query', 'GET /auth/login?next=%E0%A4%A HTTP/1.1\r\nHost: x\r\n'],
  ['a NUL in the path', 'GET /%00.js HTTP/1.1\r\nHost: x\r\n'],
  ['a traversal', 'GET /..%2f..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\n'],
  ['an absolute-form URL', 'GET http://evil.example/%zz HTTP/1.1\r\nHost: x\r\n'],
  ['a hostile Host header on the API', 'GET /api/ping HTTP/1.1\r\nHost: [::1\r\n'],
  ['a hostile Host header on a page', 'GET /auth/login HTTP/1.1\r\nHost: a b%\r\n'],
  ['an unknown page', 'GET /no/such/page HTTP/1.1\r\nHost: x\r\n'],
  ['a huge id', 'GET /api/project/99999999999999999999999999/tasks HTTP/1.1\r\nHost: x\r\n'],
  ['a malformed session cookie on a page', 'GET / HTTP/1.1\r\nHost: x\r\nCookie: semaphore=%E0%A4%A\r\n'],
  ['a malformed session cookie on the API', 'GET /api/user HTTP/1.1\r\nHost: x\r\nCookie: semaphore=%\r\n'],
  ['a websocket upgrade with a malformed cookie', 'GET /api/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
    + 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nCookie: semaphore=%\r\n'],
  ['a websocket upgrade on a broken path', 'GET /api/ws% HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
    + 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'],
  ['a form post with a broken multipart body', 'POST /project/new HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=zz\r\n'
    + 'Content-Length: 9\r\n\r\n--zz\r\nxx'],
];

describe('malformed requests (a fresh server process, real HTTP)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-malformed-'));
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ SEMAPHORE_DB_HOST: join(dir, 'db.sqlite'), SEMAPHORE_TMP_PATH: join(dir, 'tmp') });
  });
  afterAll(() => {
    server?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers GET /% and GET /%E0%A4%A.js with 400', async () => {
    expect(await sendRaw(server.port, 'GET /% HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toBe(400);
    expect(await sendRaw(server.port, 'GET /%E0%A4%A.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toBe(400);
  });

  it('keeps answering /api/ping after each hostile request, and none gets a 5xx', async () => {
    const problems: string[] = [];
    for (const [label, head] of HOSTILE) {
      const request = head.includes('\r\n\r\n') ? head.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n') : `${head}Connection: close\r\n\r\n`;
      const status = await sendRaw(server.port, request);
      if (status >= 500) problems.push(`${label}: ${status}`);
      const ping = await fetch(`http://127.0.0.1:${server.port}/api/ping`).then((r) => r.text(), (e: Error) => `down (${e.message})`);
      if (ping !== 'pong') problems.push(`${label}: /api/ping answered ${ping}`);
    }
    expect(problems, server.output()).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  });
});
