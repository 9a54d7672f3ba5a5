// Facts about this machine that tell whether a recorded process or worker can still be alive.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export function thisHost(): string {
  return hostname();
}

/** This boot of this machine: a process group recorded under another boot id is long gone. */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * True while the process exists and is not a zombie: a server killed with -9 stays a zombie
 * until its parent reaps it, and `kill(pid, 0)` alone counts that as alive.
 * @example isProcessAlive(1234) === false // after kill -9, even before the reap
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processStat(pid)?.[0] !== 'Z';
}

/** The fields of `/proc/<pid>/stat` after the command name: state letter (R, S, Z, ...), parent, process group...; null when it cannot be read. */
export function processStat(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself hold spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}
