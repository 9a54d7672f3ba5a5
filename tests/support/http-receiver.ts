import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: any; raw: string }

/**
 * A loopback HTTP server that records every request (JSON bodies parsed) and answers 200, or
 * the status `statusFor(path)` gives: a stand-in for chat services and webhooks.
 * @example const r = await startHttpReceiver(); ...; r.received; await r.close();
 */
export async function startHttpReceiver(statusFor: (path: string) => number = () => 200, port = 0) {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try { body = JSON.parse(text); } catch { /* kept as text */ }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw: text });
      res.writeHead(statusFor(req.url ?? ''), { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, port: (server.address() as AddressInfo).port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Polls until `check` is true (10 s at most). */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
