import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node src/server/cli/main.ts <args>` as a real child process with only PATH/HOME and
 * `env` set, so the developer's SEMAPHORE_* variables never leak in. Kills it after `timeoutMs`.
 * `as` runs it as another OS user (the test must be root).
 * @example const r = await runCli(['user', 'list'], { SEMAPHORE_DB_HOST: file });
 */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 20_000, as: { uid: number; gid: number } | null = null): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/server/cli/main.ts', ...args], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(as ?? {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Whether another OS user could start the CLI: every folder above the checkout and above Node
 * must let others pass. A clone in a private folder (/root, a mode-700 mktemp) does not.
 */
export function otherUsersCanRunTheCli(): boolean {
  return [ROOT, dirname(process.execPath)].every((path) => othersCanEnter(path));
}

function othersCanEnter(path: string): boolean {
  for (let dir = path; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}
