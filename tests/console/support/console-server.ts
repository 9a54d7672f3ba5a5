import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../src/server/config/config.ts';
import { boot } from '../../../src/server/boot.ts';
import { createHostServer, type HostServer } from '../../../src/server/host/http-server.ts';
import { startEngine, type Engine } from '../../../src/server/engine/engine.ts';
import type { Deps } from '../../../src/server/deps.ts';
import type { DbSettings } from '../../../src/server/db/database.ts';
import { ADMIN } from '../../support/harness.ts';
import { copySqliteTemplate } from '../../support/database-template.ts';

export { ADMIN };

export interface ConsoleServer {
  url: string;
  deps: Deps;
  host: HostServer;
  engine: Engine;
  /** the server's temp folder (removed on close), for test repositories */
  tmp: string;
  close: () => Promise<void>;
}

/**
 * The real host server (runner API + built console) with the task engine running, on a temp
 * SQLite database (or `database`) and a free port. The console must be built first (`npm run build`; `npm test`
 * does it).
 * `env` adds settings (SEMAPHORE_*); the public URL (web_host) is the server's own address.
 * @example const server = await startConsoleServer(); await page.goto(server.url + '/');
 */
export async function startConsoleServer(env: Record<string, string> = {}, database?: DbSettings): Promise<ConsoleServer> {
  if (!existsSync(new URL('../../../dist/server/entry.mjs', import.meta.url))) {
    throw new Error('The console is not built: run `bash scripts/with-node.sh astro build` before the console tests.');
  }
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-console-'));
  const config = loadConfig({
    SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password, SEMAPHORE_ADMIN_NAME: ADMIN.name,
    SEMAPHORE_ADMIN_EMAIL: ADMIN.email, SEMAPHORE_TMP_PATH: join(tmp, 'work'), ...env,
  });
  config.db = database ?? { dialect: 'sqlite', host: join(tmp, 'console.sqlite') };
  if (!database) await copySqliteTemplate(config.db.host);
  const deps = await boot(config, () => {});
  const engine = await startEngine(deps);
  const host = await createHostServer(deps);
  await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
  const { port } = host.server.address() as AddressInfo;
  if (!env.SEMAPHORE_WEB_ROOT) config.web_host = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`, deps, host, engine, tmp,
    close: async () => {
      await engine.stop();
      await host.close();
      await deps.db.destroy();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
