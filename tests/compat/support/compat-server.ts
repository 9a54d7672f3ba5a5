import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createHostServer } from '../../../src/server/host/http-server.ts';
import { startEngine } from '../../../src/server/engine/engine.ts';
import { startTestServer, ADMIN, type TestServer } from '../../support/harness.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import type { DialectName } from '../../support/dialects.ts';

export { ADMIN };

/** What a client of the compatibility matrix talks to: a real server on a loopback port, running tasks. */
export interface CompatServer {
  s: TestServer;
  url: string;
  /** a `file://` git repository whose `hello.sh` prints `hello from signalbox` and `slow.sh` sleeps */
  repoUrl: string;
  close: () => Promise<void>;
}

/** The scripts every client's templates run. */
export const HELLO_OUTPUT = 'hello from signalbox';

/**
 * The real host server (runner API over HTTP) with the task engine, on a fresh database of
 * the dialect, and a git repository for the clients' templates.
 * @example const server = await startCompatServer('sqlite'); await fetch(server.url + '/api/ping');
 */
export async function startCompatServer(dialect: DialectName): Promise<CompatServer> {
  const s = await startTestServer(dialect);
  const engine = await startEngine(s.deps);
  const host = await createHostServer(s.deps);
  await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
  const { port } = host.server.address() as AddressInfo;
  const repo = createGitRepo(join(s.tmp, 'scripts'), { 'hello.sh': `#!/bin/bash\necho "${HELLO_OUTPUT}"\n`, 'slow.sh': '#!/bin/bash\nsleep 60\n' });
  return {
    s, url: `http://127.0.0.1:${port}`, repoUrl: `file://${repo.path}`,
    close: async () => {
      await engine.stop();
      await host.close();
      await s.close();
    },
  };
}

/** A finished child process: its exit code and both outputs. */
export interface Ran { code: number; stdout: string; stderr: string }

/**
 * Runs a client program (curl, python3, ansible-playbook) without a shell; never throws for
 * a non-zero exit, so the test asserts on what it printed.
 * @example const { stdout } = await run('curl', ['-s', url]);
 */
export function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The task's status once it has finished (polling the API, as a client would). */
export async function finishedStatus(server: CompatServer, projectId: number, taskId: number, headers: Record<string, string>): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const task = await (await fetch(`${server.url}/api/project/${projectId}/tasks/${taskId}`, { headers })).json() as { status: string };
    if (['success', 'error', 'stopped', 'rejected'].includes(task.status)) return task.status;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${taskId} did not finish`);
}
