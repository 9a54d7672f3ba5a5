import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOf, startServerProcess as startServer } from '../../support/raw-server.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('signalbox server process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-process-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves /api/ping, keeps data across a restart and shuts down cleanly on SIGTERM', async () => {
    const env = {
      SEMAPHORE_DB_HOST: join(dir, 'db.sqlite'), SEMAPHORE_TMP_PATH: join(dir, 'tmp'),
      SEMAPHORE_ADMIN: 'admin', SEMAPHORE_ADMIN_PASSWORD: 'process-pass-1',
    };
    const first = await startServer(env);
    const base = `http://127.0.0.1:${first.port}`;
    const ping = await fetch(`${base}/api/ping`);
    expect(await ping.text()).toBe('pong');
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: 'process-pass-1' }) });
    expect(login.status).toBe(204);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${base}/api/projects`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Kept' }) })).status).toBe(201);

    const exited = exitOf(first.child);
    first.child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const second = await startServer(env);
    const again = await fetch(`http://127.0.0.1:${second.port}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: 'process-pass-1' }) });
    const cookie2 = again.headers.get('set-cookie')!.split(';')[0]!;
    const projects = await (await fetch(`http://127.0.0.1:${second.port}/api/projects`, { headers: { cookie: cookie2 } })).json();
    expect(projects.map((p: { name: string }) => p.name)).toEqual(['Kept']);
    const users = await (await fetch(`http://127.0.0.1:${second.port}/api/users`, { headers: { cookie: cookie2 } })).json();
    expect(users.filter((u: { username: string }) => u.username === 'admin')).toHaveLength(1);
    const exited2 = exitOf(second.child);
    second.child.kill('SIGINT');
    expect(await exited2).toBe(0);
  });

  it('stops at start-up with one line naming a bad setting', async () => {
    const child = spawn(process.execPath, ['src/server/cli/main.ts', 'server'], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', SEMAPHORE_MAX_PARALLEL_TASKS: 'many' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => { stderr += d; });
    expect(await exitOf(child)).not.toBe(0);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('SEMAPHORE_MAX_PARALLEL_TASKS');
  });
});
