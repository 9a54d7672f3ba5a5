import type { TaskUser } from './task-user.ts';

/**
 * Who one run's processes are, held from before its first process until after its last. Each
 * run asks its source for one and gives it back; nothing of the run may outlive `release`.
 */
export interface TaskIdentity {
  /** the OS user (and chroot, PID namespace) processes start as; null: the server's own user */
  readonly user: TaskUser | null;
  /** the run's own account name and home (HOME, USER, LOGNAME), when the identity has them */
  readonly account: { name: string; home: string } | null;
  release(): Promise<void>;
}

/**
 * Where runs get their identity. `server`: tasks run as the server's user; `user`: every task
 * as Semaphore's one `process.user`; `pool`: each running task as a uid of its own from
 * SEMAPHORE_PROCESS_UID_POOL. A container executor (issue 47) is another source: its identity
 * is the container's (a user namespace of its own), so it hands out `user: null` and starts
 * the run's processes inside the container instead.
 */
export interface TaskIdentitySource {
  readonly kind: 'server' | 'user' | 'pool';
  /**
   * An identity for one run; may wait for one to be free (`onWait` is told once), and rejects
   * when `signal` aborts first (the task was stopped while waiting).
   */
  acquire(signal: AbortSignal, onWait: (line: string) => void): Promise<TaskIdentity>;
}

/** Every task runs as the server's own user (the default). */
export const SERVER_USER: TaskIdentitySource = fixedIdentity('server', null);

/** Every task runs as one user (Semaphore's `process.user`), or the server's own (null). */
export function fixedIdentity(kind: 'server' | 'user', user: TaskUser | null): TaskIdentitySource {
  const identity: TaskIdentity = { user, account: null, release: async () => {} };
  return { kind, acquire: async () => identity };
}
