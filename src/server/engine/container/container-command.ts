import { spawn } from 'node:child_process';
import type { ContainerEngine } from './container-cli.ts';

/** Output kept of a CLI call: enough for an id, a list of names or an error message. */
const KEPT_CHARS = 64 * 1024;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the container CLI to its end (a pull, a start, a kill), with the server's environment
 * plus `env`; `input` is written to its stdin (a registry password, never an argument). A CLI
 * that is not installed answers code 127 with the reason, so callers say it in the task log.
 * @example const { code, stdout } = await containerCommand('podman', ['image', 'inspect', 'alpine:3']);
 */
export function containerCommand(engine: ContainerEngine, args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(engine, args, { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    const keep = (key: 'stdout' | 'stderr') => (chunk: Buffer) => {
      if (out[key].length < KEPT_CHARS) out[key] += chunk.toString('utf8');
    };
    child.stdout.on('data', keep('stdout'));
    child.stderr.on('data', keep('stderr'));
    child.once('error', (err: NodeJS.ErrnoException) => resolve({
      code: 127, stdout: '',
      stderr: err.code === 'ENOENT' ? `${engine} is not installed on this machine (SEMAPHORE_EXECUTOR=${engine})` : `cannot run ${engine}: ${err.message}`,
    }));
    child.once('close', (code) => resolve({ code: code ?? 1, ...out }));
    child.stdin.on('error', () => { /* the CLI exited before reading its input: its exit says why */ });
    child.stdin.end(options.input ?? '');
  });
}

/** The CLI's last non-empty line of errors: what a task log shows of a failed call. */
export function reasonOf(result: CommandResult): string {
  const lines = result.stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.at(-1) ?? `exit code ${result.code}`;
}
