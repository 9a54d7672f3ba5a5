import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import type { TaskUser } from './task-user.ts';

/** util-linux's setpriv: with --pdeathsig the task's main process dies when the server dies. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p)) ?? null;
/** util-linux's unshare: new PID and mount namespaces, /proc mounted afresh inside; --kill-child ends them with it. */
const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'].find((p) => existsSync(p)) ?? null;
const OWN_PIDS = ['--pid', '--fork', '--mount-proc', '--kill-child'];

/** Changes into the task's directory inside the chroot, then runs the command (words passed as arguments, never parsed). */
const CHROOT_CD = 'cd -- "$1" && shift && exec "$@"';
/**
 * The first process of a PID namespace gets no signal it has no handler for (SIGTERM to a
 * plain script would be lost): a shell stays process 1 and runs the command as process 2,
 * which a stop reaches, and ends with its status.
 */
const NAMESPACE_INIT = '"$@" & wait $!';
const CHROOT_CD_IN_NAMESPACE = `cd -- "$1" && shift && { ${NAMESPACE_INIT}; }`;

export interface Launch {
  command: string;
  args: string[];
  uid?: number;
  gid?: number;
}

/**
 * How a task command is actually started: as the task user when one is configured (Node sets
 * the ids and drops supplementary groups), under `setpriv --pdeathsig KILL` when available, and
 * inside `chroot --userspec` when a chroot is configured (the work directory must exist at the
 * same path inside it). A user with `ownPids` gets PID and mount namespaces of its own first
 * (`unshare`, as root), and the ids are dropped inside them.
 * @example launchFor('bash', ['run.sh'], '/tmp/semaphore/task_3', env, user) // { command: '/usr/bin/setpriv', args: ['--pdeathsig', 'KILL', '--', '/usr/bin/bash', 'run.sh'], uid: 1001, gid: 1001 }
 */
export function launchFor(command: string, args: string[], cwd: string, env: Record<string, string>, user: TaskUser | null): Launch {
  if (user?.ownPids && SETPRIV && UNSHARE) {
    const inside = user.chroot ? chrootLaunch(command, args, cwd, user, CHROOT_CD_IN_NAMESPACE) : dropIdsLaunch(command, args, cwd, env, user);
    // a missing command still fails the spawn itself
    if (inside) return { command: SETPRIV, args: ['--pdeathsig', 'KILL', '--', UNSHARE, ...OWN_PIDS, '--', inside.command, ...inside.args] };
  }
  if (user?.chroot) return chrootLaunch(command, args, cwd, user, CHROOT_CD);
  const ids = user ? { uid: user.uid, gid: user.gid } : {};
  // A missing command must fail the spawn itself ("cannot start"), not exit 127 inside setpriv.
  const path = SETPRIV ? findExecutable(command, cwd, env.PATH ?? '') : null;
  if (!path) return { command, args, ...ids };
  return { command: SETPRIV!, args: ['--pdeathsig', 'KILL', '--', path, ...args], ...ids };
}

function chrootLaunch(command: string, args: string[], cwd: string, user: TaskUser, script: string): Launch {
  return { command: 'chroot', args: [`--userspec=${user.uid}:${user.gid}`, '--', user.chroot, '/bin/sh', '-c', script, 'sh', cwd, command, ...args] };
}

/** setpriv switching to the user (no supplementary groups) in a new PID namespace; null when the command does not exist. */
function dropIdsLaunch(command: string, args: string[], cwd: string, env: Record<string, string>, user: TaskUser): Launch | null {
  const path = findExecutable(command, cwd, env.PATH ?? '');
  if (!path) return null;
  return { command: SETPRIV!, args: [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--pdeathsig', 'KILL', '--', '/bin/sh', '-c', NAMESPACE_INIT, 'sh', path, ...args] };
}

/**
 * The file `command` names, looked up on PATH as execvp would; null when there is none.
 * A PATH entry without the file is passed without an exception (a dozen thrown errors per
 * task start cost more than the stat calls).
 */
function findExecutable(command: string, cwd: string, pathList: string): string | null {
  const candidates = command.includes('/') ? [resolve(cwd, command)] : pathList.split(delimiter).filter(Boolean).map((dir) => join(resolve(cwd, dir), command));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate, { throwIfNoEntry: false })?.isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch { /* next */ }
  }
  return null;
}
