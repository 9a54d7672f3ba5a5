import { execFile } from 'node:child_process';
import type { TaskUser } from '../process/task-user.ts';

/** Runs a command whose output belongs in the task log; rejects on a non-zero exit. */
export type LoggedExec = (command: string, args: string[], cwd: string, env: Record<string, string>) => Promise<void>;

/**
 * Runs a git command whose answer the engine reads (not the task log) in `dir`: as the task
 * user when there is one (a clone's config must never run anything as the server), with the
 * run's git environment rather than the server's own. Resolves with stdout, or null when git
 * fails (exit status not 0).
 * @example await gitQuery(dir, ['rev-parse', '--verify', 'HEAD^{commit}'], env, user) // 'a1b2…\n'
 */
export function gitQuery(dir: string, args: string[], env: Record<string, string>, user: TaskUser | null): Promise<string | null> {
  const ids = user ? { uid: user.uid, gid: user.gid } : {};
  return new Promise((resolve) => {
    execFile('git', args, { cwd: dir, ...ids, env: { ...env, GIT_TERMINAL_PROMPT: '0' } }, (err, stdout) => resolve(err ? null : stdout));
  });
}
