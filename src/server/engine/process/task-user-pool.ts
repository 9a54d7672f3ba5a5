import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../../config/config-error.ts';
import type { TaskIdentity, TaskIdentitySource } from './task-identity.ts';
import { poolAccount, type PoolAccount } from './pool-account.ts';
import { endProcessesOf, removeFilesOf, SHARED_TEMP_DIRS } from './uid-leftovers.ts';

/**
 * SEMAPHORE_PROCESS_UID_POOL: each running task takes a free uid of the range (its account
 * `signalbox-task-<uid>` is made on first use unless it exists), so no task can read another's
 * `/proc/<pid>/environ`, temporary files or work folders; with a PID namespace of its own it
 * cannot even see another task's processes or command lines. When the run ends, every process
 * of the uid is killed and what it left in its home and the shared temporary folders is
 * removed before the uid is handed out again. The pool lives in this process: servers and
 * runners on one host need ranges of their own. Needs root.
 * @example const identity = await pool.acquire(signal, log); try { ... } finally { await identity.release(); }
 */
export class TaskUserPool implements TaskIdentitySource {
  readonly kind = 'pool';
  readonly #range: { first: number; last: number };
  readonly #chroot: string;
  readonly #homeRoot: string;
  readonly #ownPids: boolean;
  readonly #busy = new Set<number>();
  readonly #waiters = new Set<() => void>();

  constructor(range: { first: number; last: number }, chroot: string, homeRoot: string, warn: (line: string) => void = (line) => console.warn(`[signalbox] ${line}`)) {
    if (process.getuid?.() !== 0) throw new ConfigError('SEMAPHORE_PROCESS_UID_POOL: running each task as a user of its own needs the server to run as root');
    this.#range = range;
    this.#chroot = chroot;
    this.#homeRoot = homeRoot;
    this.#ownPids = canGiveOwnPids();
    if (!this.#ownPids) warn('warning: SEMAPHORE_PROCESS_UID_POOL: unshare cannot make PID namespaces here, so running tasks see each other\'s processes and command lines (not their environments or files)');
  }

  async acquire(signal: AbortSignal, onWait: (line: string) => void): Promise<TaskIdentity> {
    let told = false;
    for (;;) {
      signal.throwIfAborted();
      const uid = this.#freeUid();
      if (uid !== null) return this.#take(uid);
      if (!told) onWait(`Waiting for a free task user: all ${this.#range.last - this.#range.first + 1} uids of SEMAPHORE_PROCESS_UID_POOL are in use`);
      told = true;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        this.#waiters.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  #freeUid(): number | null {
    for (let uid = this.#range.first; uid <= this.#range.last; uid++) if (!this.#busy.has(uid)) return uid;
    return null;
  }

  async #take(uid: number): Promise<TaskIdentity> {
    this.#busy.add(uid);
    try {
      const account = await poolAccount(uid, this.#homeRoot);
      // a server that crashed mid-run left the uid as it was: clear it first
      await clearLeftovers(account);
      // folders above the home may be passed through, not listed
      mkdirSync(dirname(account.home), { recursive: true, mode: 0o711 });
      mkdirSync(account.home, { mode: 0o700 });
      chownSync(account.home, account.uid, account.gid);
      let released = false;
      return {
        user: { uid: account.uid, gid: account.gid, chroot: this.#chroot, ownPids: this.#ownPids },
        account: { name: account.name, home: account.home },
        release: async () => {
          if (released) return;
          released = true;
          await clearLeftovers(account).finally(() => this.#free(uid));
        },
      };
    } catch (err) {
      this.#free(uid);
      throw err;
    }
  }

  #free(uid: number): void {
    this.#busy.delete(uid);
    for (const wake of [...this.#waiters]) wake();
  }
}

/** Nothing of a run may reach the next holder of its uid: its processes, its home, its temporary files. */
async function clearLeftovers(account: PoolAccount): Promise<void> {
  await endProcessesOf(account.uid, account.gid);
  rmSync(account.home, { recursive: true, force: true });
  removeFilesOf(account.uid, SHARED_TEMP_DIRS);
}

/** Whether this host lets the server start a process in new PID and mount namespaces (containers may not). */
function canGiveOwnPids(): boolean {
  return spawnSync('unshare', ['--pid', '--fork', '--mount-proc', '--', 'true'], { stdio: 'ignore' }).status === 0;
}
