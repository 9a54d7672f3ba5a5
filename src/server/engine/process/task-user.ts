import { execFileSync } from 'node:child_process';
import { existsSync, lchownSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type ProcessSettings } from '../../config/config.ts';

/** The OS identity task processes run with when `process.*` is configured. */
export interface TaskUser {
  uid: number;
  gid: number;
  /** empty: no chroot */
  chroot: string;
  /** in a PID namespace of its own (with its own /proc): the run sees no other process */
  ownPids?: boolean;
}

/**
 * Reads Semaphore's `process` settings into a uid/gid (a user name is looked up with getent);
 * null when none is set, so tasks run as the server's own user. Throws a ConfigError naming the
 * setting when the user is unknown or the server may not switch to it.
 * @example resolveTaskUser({ user: 'signalbox-task', uid: null, gid: null, chroot: '' }) // { uid: 1001, gid: 1001, chroot: '' }
 */
export function resolveTaskUser(settings: Omit<ProcessSettings, 'uid_pool'>): TaskUser | null {
  if (!settings.user && settings.uid === null && settings.gid === null && !settings.chroot) return null;
  const account = settings.user ? lookUpAccount(settings.user, 'SEMAPHORE_PROCESS_USER') : null;
  const uid = settings.uid ?? account?.uid ?? process.getuid!();
  const gid = settings.gid ?? account?.gid ?? (settings.uid !== null ? primaryGroupOf(settings.uid) : process.getgid!());
  if (process.getuid!() !== 0 && (uid !== process.getuid!() || gid !== process.getgid!() || settings.chroot)) {
    throw new ConfigError('SEMAPHORE_PROCESS_USER/UID/GID/CHROOT: running tasks as another user or in a chroot needs the server to run as root');
  }
  if (settings.chroot && !existsSync(settings.chroot)) throw new ConfigError(`SEMAPHORE_PROCESS_CHROOT: "${settings.chroot}" does not exist`);
  return { uid, gid, chroot: settings.chroot };
}

/** Tasks running as root could read the database and the key file: say once how to avoid it. */
export function warnWhenTasksRunAsRoot(tasksRunAsServer: boolean, warn: (line: string) => void): void {
  if (process.getuid?.() !== 0 || !tasksRunAsServer) return;
  warn('warning: the server runs as root and so does every task; set SEMAPHORE_PROCESS_UID_POOL (a user of its own for each running task) or SEMAPHORE_PROCESS_USER (one unprivileged user for all)');
}

function lookUpAccount(nameOrId: string, setting: string): { uid: number; gid: number } {
  let line = '';
  try {
    line = execFileSync('getent', ['passwd', '--', nameOrId], { encoding: 'utf8' }).trim();
  } catch { /* reported below */ }
  const fields = line.split(':');
  if (fields.length < 4) throw new ConfigError(`${setting}: no such user "${nameOrId}"`);
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

function primaryGroupOf(uid: number): number {
  try {
    return lookUpAccount(String(uid), 'SEMAPHORE_PROCESS_UID').gid;
  } catch {
    return uid;
  }
}

/**
 * Gives a directory tree to an owner without following symbolic links (a task may plant links
 * to the server's files in its own checkout).
 * @example chownTree('/tmp/semaphore/repository_1_2', 1001, 1001);
 */
export function chownTree(path: string, uid: number, gid: number): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  lchownSync(path, uid, gid);
  if (!stat.isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), uid, gid);
}

/** Hands a path to the task user (no-op without one). */
export function giveToTaskUser(path: string, user: TaskUser | null): void {
  if (user) chownTree(path, user.uid, user.gid);
}

/** Who holds each lent path and how many of its runs (parallel runs of one user share a template's clone). */
const lends = new Map<string, { uid: number; runs: number }>();
/** Runs waiting for a path another task user holds, woken when it comes back. */
const waiting = new Map<string, Set<() => void>>();

/**
 * Lends a path to the task user for one run; `returnFromTaskUser` takes it back once the last
 * run holding it ends, so later tasks cannot read what this one left. False (nothing changed)
 * while another task user holds it: a run never takes files from under another identity.
 * @example if (lendToTaskUser(cloneDir, user)) try { ... } finally { returnFromTaskUser(cloneDir, user); }
 */
export function lendToTaskUser(path: string, user: TaskUser | null): boolean {
  if (!user) return true;
  const held = lends.get(path);
  if (held && held.uid !== user.uid) return false;
  lends.set(path, { uid: user.uid, runs: (held?.runs ?? 0) + 1 });
  giveToTaskUser(path, user);
  return true;
}

/**
 * Lends a path as `lendToTaskUser` does, waiting while another task user holds it (a local
 * repository every run clones from); rejects when `signal` aborts first.
 * @example await lendWhenFree(sourceDir, user, signal, () => log('waiting'));
 */
export async function lendWhenFree(path: string, user: TaskUser | null, signal: AbortSignal, onWait: () => void): Promise<void> {
  if (lendToTaskUser(path, user)) return;
  onWait();
  while (!lendToTaskUser(path, user)) {
    signal.throwIfAborted();
    await new Promise<void>((resolve) => {
      const wake = () => {
        waiting.get(path)?.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      if (!waiting.has(path)) waiting.set(path, new Set());
      waiting.get(path)!.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }
}

export function returnFromTaskUser(path: string, user: TaskUser | null): void {
  if (!user) return;
  const held = lends.get(path);
  if (held && held.runs > 1) return void lends.set(path, { ...held, runs: held.runs - 1 });
  lends.delete(path);
  chownTree(path, process.getuid!(), process.getgid!());
  for (const wake of [...(waiting.get(path) ?? [])]) wake();
}
