import { execFileSync } from 'node:child_process';
import { containerInstance, taskContainerName } from '../../src/server/engine/container/container-cli.ts';
import { podman } from './container-images.ts';

/** The name of a task's container for the installation whose tmp_path this is. */
export function containerNameOf(tmpPath: string, taskId: number): string {
  return taskContainerName(containerInstance(tmpPath), taskId);
}

/** The state of a container ('running', 'exited'...), or null when there is none; other failures throw. */
export function containerState(name: string): string | null {
  try {
    return podman('container', 'inspect', '--format={{.State.Status}}', name) || null;
  } catch (err) {
    if (/no such container/i.test(String((err as { stderr?: string }).stderr ?? ''))) return null;
    throw err;
  }
}

/** Every command line on this machine (what `ps` shows any local user). */
export function hostCommandLines(): string {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Waits, by polling the engine, until `check` holds; throws with `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
