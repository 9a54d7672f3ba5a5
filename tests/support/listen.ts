import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { TestServer } from './harness.ts';

/**
 * Serves the test's runner API on a loopback port (for child processes that call it over
 * HTTP, such as terraform's state backend) and points `web_host` at it.
 * @example const stop = await listenOnLoopback(s); ...; await stop();
 */
export async function listenOnLoopback(s: TestServer): Promise<() => Promise<void>> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: s.api.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  s.config.web_host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
