import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** True when this test run may create OS users; CI runs as root, so there a non-root run fails. */
export function canCreateOsUsers(): boolean {
  if (process.getuid?.() === 0) return true;
  if (process.env.CI) throw new Error('tests that create an OS user need root under CI');
  console.warn('\n*** not root: tests that run tasks as another OS user are SKIPPED ***\n');
  return false;
}

export interface OsUser {
  name: string;
  uid: number;
  gid: number;
  remove: () => void;
}

/**
 * A real unprivileged user (no login shell) made with useradd; `remove` deletes it and its home.
 * It has a home, as the README asks: ansible against localhost keeps its remote_tmp under `~user`.
 * @example const user = createOsUser(); try { ... } finally { user.remove(); }
 */
export function createOsUser(): OsUser {
  const name = `sbtask${randomBytes(4).toString('hex')}`;
  execFileSync('useradd', ['--create-home', '--user-group', '--shell', '/usr/sbin/nologin', name]);
  const [uid, gid] = execFileSync('getent', ['passwd', name], { encoding: 'utf8' }).split(':').slice(2, 4).map(Number);
  return {
    name, uid: uid!, gid: gid!,
    remove: () => execFileSync('userdel', ['--remove', name], { stdio: 'ignore' }),
  };
}
