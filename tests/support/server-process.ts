import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ADMIN } from './harness.ts';

const ROOT = join(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  /** the node process serving the API */
  pid: number;
  /** the process we spawned: the server itself, or the non-reaping parent holding it */
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts `signalbox server` as a real process and resolves once `/api/ping` answers. With
 * `zombieParent`, the server runs under a parent that never reaps it, so a `kill -9` leaves a
 * zombie (as under a container init that does not reap).
 * @example const server = await startServerProcess(env, port); process.kill(server.pid, 'SIGKILL');
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, port: number, options: { zombieParent?: boolean; timeoutMs?: number } = {}): Promise<ServerProcess> {
  const argv = [process.execPath, join(ROOT, 'src/server/cli/main.ts'), 'server'];
  const child = options.zombieParent
    ? spawn('bash', ['-c', '"$@" & echo "pid=$!"; exec sleep 600', 'bash', ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(argv[0]!, argv.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/ping`).then((r) => r.ok, () => false);
    if (ok) {
      const pid = options.zombieParent ? Number(/pid=(\d+)/.exec(output)![1]) : child.pid!;
      return { pid, child, output: () => output };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${output}`);
}

/** Signs in as the env admin and starts a task of the template; returns the task id. */
export async function startTaskOverHttp(port: number, projectId: number, templateId: number): Promise<number> {
  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const created = await fetch(`http://127.0.0.1:${port}/api/project/${projectId}/tasks`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ template_id: templateId }),
  });
  if (created.status !== 201) throw new Error(`task not created: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { id: number }).id;
}
