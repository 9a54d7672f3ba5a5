import type { AddressInfo } from 'node:net';
import { createHostServer } from '../../src/server/host/http-server.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { startEngine } from '../../src/server/engine/engine.ts';
import type { DialectName } from './dialects.ts';

/**
 * A test server (see harness.ts) that also listens on a loopback port through the real host
 * server, for checks that must go over HTTP: headers, sockets, the request guard.
 * @example const { s, url } = await startHttpTestServer('postgres'); await fetch(url + '/api/ping');
 */
export async function startHttpTestServer(dialect: DialectName, env: Record<string, string> = {}): Promise<{ s: TestServer; url: string; close: () => Promise<void> }> {
  const s = await startTestServer(dialect, env);
  const host = await createHostServer(s.deps);
  await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
  const { port } = host.server.address() as AddressInfo;
  return {
    s, url: `http://127.0.0.1:${port}`,
    close: async () => {
      await host.close();
      await s.close();
    },
  };
}

/**
 * An HTTP test server with the task engine running on it; `close` stops the engine first.
 * @example const server = await startHttpEngineServer('sqlite'); ...; await server.close();
 */
export async function startHttpEngineServer(dialect: DialectName, env: Record<string, string> = {}) {
  const server = await startHttpTestServer(dialect, env);
  const engine = await startEngine(server.s.deps);
  return {
    ...server, engine,
    close: async () => {
      await engine.stop();
      await server.close();
    },
  };
}
