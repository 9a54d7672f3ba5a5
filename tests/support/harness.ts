import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { loadConfig, type Config } from '../../src/server/config/config.ts';
import { boot } from '../../src/server/boot.ts';
import { createApi } from '../../src/server/app.ts';
import type { Deps } from '../../src/server/deps.ts';
import type { AppEnv } from '../../src/server/http/context.ts';
import { migratedDatabase, type DialectName } from './dialects.ts';
import { dropAfterFile } from './drops-after-file.ts';

export const ADMIN = { login: 'admin', password: 'admin-password-1', name: 'Admin', email: 'admin@example.test' };

export interface TestServer {
  dialect: DialectName;
  deps: Deps;
  api: Hono<AppEnv>;
  config: Config;
  tmp: string;
  /** a request through `app.request`, as `who` (a cookie/bearer header set, or none) */
  call: (method: string, path: string, body?: unknown, auth?: Auth) => Promise<TestResponse>;
  /** signs in with a password and returns the cookie header */
  login: (login: string, password: string) => Promise<Auth>;
  close: () => Promise<void>;
}

export type Auth = Record<string, string>;

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** parsed JSON, or undefined when the body is not JSON */
  body: any;
}

/**
 * Boots a runner API on a fresh database of the dialect (a copy of the migrated template), with
 * the env admin created.
 * @example const s = await startTestServer('sqlite'); const admin = await s.login(ADMIN.login, ADMIN.password);
 */
export async function startTestServer(dialect: DialectName, env: Record<string, string> = {}): Promise<TestServer> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-test-'));
  const database = await migratedDatabase(dialect, tmp);
  const config = loadConfig({
    SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password, SEMAPHORE_ADMIN_NAME: ADMIN.name,
    SEMAPHORE_ADMIN_EMAIL: ADMIN.email, SEMAPHORE_TMP_PATH: join(tmp, 'work'), ...env,
  });
  config.db = database.settings;
  // a generated key file goes beside config.json; keep it inside this test's folder
  config.config_path = join(tmp, 'config.json');
  const deps = await boot(config, () => {});
  const api = createApi(deps);
  const call: TestServer['call'] = async (method, path, body, auth = {}) => {
    const init: RequestInit = { method, headers: { ...auth } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await api.request(path, init);
    const text = await res.text();
    let parsed: unknown;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  const login: TestServer['login'] = async (name, password) => {
    const res = await api.request('/api/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: name, password }),
    });
    if (res.status !== 204) throw new Error(`login as ${name} failed: ${res.status} ${await res.text()}`);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    return { cookie };
  };
  return {
    dialect, deps, api, config, tmp, call, login,
    close: async () => {
      await deps.db.destroy();
      await dropAfterFile(database.drop);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
