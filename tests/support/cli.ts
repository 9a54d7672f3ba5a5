import { spawn } from 'node:child_process';
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
