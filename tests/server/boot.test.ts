import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { boot } from '../../src/server/boot.ts';
import { createApi } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config/config.ts';
import type { Deps } from '../../src/server/deps.ts';
import { DIALECTS, freshDatabase } from '../support/dialects.ts';
import { ADMIN } from '../support/harness.ts';

for (const dialect of DIALECTS) {
  describe(`restart (${dialect})`, () => {
    const tmp = mkdtempSync(join(tmpdir(), 'signalbox-restart-'));
    const drops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const drop of drops) await drop();
      rmSync(tmp, { recursive: true, force: true });
    });

    const request = async (deps: Deps, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await createApi(deps).request(path, {
        method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    };

    it('keeps users, projects, sessions, tokens and the secrets key across two boots on the same database', async () => {
      const database = await freshDatabase(dialect, tmp);
      drops.push(database.drop);
      const config = loadConfig({ SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password, SEMAPHORE_ADMIN_EMAIL: ADMIN.email });
      config.db = database.settings;
      config.config_path = join(tmp, 'config.json');

      const first = await boot(config, () => {});
      const login = await request(first, 'POST', '/api/auth/login', { auth: ADMIN.login, password: ADMIN.password });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const project = (await request(first, 'POST', '/api/projects', { name: 'Survivor' }, { cookie })).body;
      const token = (await request(first, 'POST', '/api/user/tokens', { name: 'keep' }, { cookie })).body.id;
      const sealed = first.secrets.seal('still readable');
      await first.db.destroy();

      const second = await boot(config, () => {});
      try {
        const users = await second.db.selectFrom('user').select('username').execute();
        expect(users).toEqual([{ username: ADMIN.login }]);
        expect((await request(second, 'GET', `/api/project/${project.id}`, undefined, { cookie })).body).toMatchObject({ name: 'Survivor' });
        expect((await request(second, 'GET', '/api/user', undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
        expect(second.secrets.open(sealed)).toBe('still readable');
        const events = (await request(second, 'GET', `/api/project/${project.id}/events`, undefined, { cookie })).body;
        expect(events.map((e: { description: string }) => e.description)).toEqual(['Project created']);
      } finally {
        await second.db.destroy();
      }
    });
  });
}
