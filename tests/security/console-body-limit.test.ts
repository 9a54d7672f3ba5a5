import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { createClient } from '../console/support/http-client.ts';

const MB = 1024 * 1024;

/**
 * Sends a request head, then body bytes in 64 KB pieces (chunked-encoded when `chunked`) until
 * `bodyBytes` are sent or the server answers; resolves with the status (0: no answer within
 * 10 s) and how many body bytes went out before the answer came.
 */
function upload(port: number, head: string, bodyBytes: number, chunked: boolean): Promise<{ status: number; sent: number }> {
  return new Promise((resolve) => {
    let answer = '';
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), sent });
    };
    const piece = Buffer.alloc(64 * 1024, 'a');
    const socket = connect(port, '127.0.0.1', async () => {
      socket.write(head);
      while (!answer && sent < bodyBytes && !socket.destroyed) {
        const frame = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
        sent += piece.length;
        if (!socket.write(frame)) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
    });
    socket.on('data', (d) => {
      answer += d;
      if (/^HTTP\/1\.1 \d{3}/.test(answer)) setTimeout(finish, 50);
    });
    socket.on('error', () => finish());
    socket.on('close', () => finish());
    setTimeout(finish, 10_000);
  });
}

describe('console request bodies are bounded (real HTTP, built console)', () => {
  let server: ConsoleServer;
  let port: number;
  beforeAll(async () => {
    server = await startConsoleServer();
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => { await server?.close(); });

  const formHead = (path: string, length: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n${length}\r\n`;

  it('refuses a 600 MB sign-in form on its Content-Length with 413, before any body byte', async () => {
    const result = await upload(port, formHead('/auth/login', 'Content-Length: 600000000\r\n'), 0, false);
    expect(result).toEqual({ status: 413, sent: 0 });
  });

  it('refuses a chunked sign-in form with 413 once it passes 1 MB, long before it ends', async () => {
    const result = await upload(port, formHead('/auth/login', 'Transfer-Encoding: chunked\r\n'), 32 * MB, true);
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(16 * MB);
  });

  it('keeps serving normal forms and lets the restore page take an upload above 1 MB', async () => {
    const client = createClient(server.url);
    await client.signIn();
    expect((await client.get('/project/new')).status).toBe(200);
    const form = new FormData();
    form.set('name', 'Restored');
    form.set('backup', new Blob([JSON.stringify({ meta: {}, keys: [], padding: 'x'.repeat(2 * MB) })], { type: 'application/json' }), 'backup.json');
    const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${server.url}/project/restore`, { method: 'POST', headers: { cookie }, body: form, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Restored');
    const tooLarge = await upload(port, formHead('/project/restore', `Content-Length: ${64 * MB}\r\nCookie: ${cookie}\r\n`), 0, false);
    expect(tooLarge).toEqual({ status: 413, sent: 0 });
  });
});
