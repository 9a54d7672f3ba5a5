import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from './cli.ts';
import type { Db } from '../../src/server/db/database.ts';
import { now } from '../../src/server/lib/time.ts';

const ROOT = join(import.meta.dirname, '../..');

export interface RunnerChild {
  child: ChildProcess;
  output: () => string;
  /** resolves when the process has exited */
  exited: Promise<void>;
}

/** Environment of a runner process: only PATH/HOME and its own settings. */
export function runnerEnv(apiUrl: string, dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '',
    SEMAPHORE_RUNNER_API_URL: apiUrl, SEMAPHORE_RUNNER_TOKEN_FILE: join(dir, 'runner.token'), SEMAPHORE_TMP_PATH: join(dir, 'work'),
    ...extra,
  };
}

/** `signalbox runner register` as a real process; throws with its output when it fails. */
export async function registerRunner(env: Record<string, string>, args: string[] = []): Promise<string> {
  const r = await runCli(['runner', 'register', ...args], env, 90_000);
  if (r.code !== 0) throw new Error(`runner register failed (${r.code}): ${r.stdout}${r.stderr}`);
  return r.stdout + r.stderr;
}

/**
 * `signalbox runner start` as a real process (kill it with `child.kill('SIGKILL')`).
 * @example const runner = startRunner(runnerEnv(url, dir));
 */
export function startRunner(env: Record<string, string>): RunnerChild {
  const child = spawn(process.execPath, [join(ROOT, 'src/server/cli/main.ts'), 'runner', 'start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => output, exited };
}

export async function stopRunner(r: RunnerChild | undefined): Promise<void> {
  if (!r || r.child.exitCode !== null || r.child.signalCode !== null) return;
  r.child.kill('SIGKILL');
  await r.exited;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A task row already handed to `runnerId` but not yet started by it (as when a runner dies between the two). */
export async function insertStartingTask(db: Db, projectId: number, templateId: number, runnerId: number): Promise<number> {
  const row = await db.insertInto('task').values({
    project_id: projectId, template_id: templateId, status: 'starting', user_id: null, integration_id: null, schedule_id: null, build_task_id: null,
    inventory_id: null, playbook: '', environment: '', arguments: null, git_branch: null, message: '', commit_hash: null, commit_message: '', version: null,
    params: '{}', created: now(), start: null, end: null, locked_by: `runner:${runnerId}`, process_group: null, process_host: null, process_boot_id: null,
    runner_id: runnerId,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}
