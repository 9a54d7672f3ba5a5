import { execFile } from 'node:child_process';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** World-writable folders where a run may leave files of its own outside its work folders. */
export const SHARED_TEMP_DIRS = ['/tmp', '/var/tmp', '/dev/shm'];

/**
 * Ends every process still running as `uid` (one that escaped its process group or PID
 * namespace: a cron or `at` job, a daemon started through another service): `kill -KILL -1`
 * run as that uid reaches exactly the processes it may signal, all of them at once.
 * @example await endProcessesOf(61003);
 */
export function endProcessesOf(uid: number, gid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', 'kill -KILL -1'], { uid, gid, env: { PATH: '/usr/bin:/bin' } }, () => resolve());
  });
}

/**
 * Removes what `uid` left at the top of the shared temporary folders (a file or a whole tree
 * it made there), so the next run given the same uid finds none of it. Symbolic links are
 * removed, never followed.
 * @example removeFilesOf(61003, SHARED_TEMP_DIRS);
 */
export function removeFilesOf(uid: number, dirs: string[]): void {
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        if (lstatSync(path).uid === uid) rmSync(path, { recursive: true, force: true });
      } catch { /* gone meanwhile */ }
    }
  }
}
