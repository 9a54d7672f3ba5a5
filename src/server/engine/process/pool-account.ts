import { execFile } from 'node:child_process';
import { basename, join } from 'node:path';

/** Every account of the pool is named this plus its uid, so a uid that belongs to anyone else is never used. */
export const POOL_ACCOUNT_PREFIX = 'signalbox-task-';

export interface PoolAccount {
  name: string;
  uid: number;
  gid: number;
  /** emptied before and after each run that holds the uid */
  home: string;
}

/**
 * The account of a pool uid: the existing `signalbox-task-<uid>` (made by an administrator, or
 * earlier by this function), else a new system account made with useradd: its own group, no
 * login shell, its home `<homeRoot>/home_<uid>` (created per run, not here). A uid that
 * belongs to another account is refused (it may be a person's), and so is a home not named
 * for the account (it is emptied on every run).
 * @example await poolAccount(61003, '/tmp/semaphore') // { name: 'signalbox-task-61003', uid: 61003, gid: 999, home: '/tmp/semaphore/home_61003' }
 */
export async function poolAccount(uid: number, homeRoot: string): Promise<PoolAccount> {
  const name = `${POOL_ACCOUNT_PREFIX}${uid}`;
  let account = await lookUp(String(uid));
  if (!account) {
    const created = await run('useradd', ['--system', '--uid', String(uid), '--user-group', '--no-create-home', '--home-dir', join(homeRoot, `home_${uid}`),
      '--shell', '/usr/sbin/nologin', '--comment', 'Signalbox task user', name]);
    account = await lookUp(String(uid));
    if (!account) throw new Error(`SEMAPHORE_PROCESS_UID_POOL: cannot create the account of uid ${uid} (useradd: ${created.trim() || 'failed'})`);
  }
  if (account.name !== name) throw new Error(`SEMAPHORE_PROCESS_UID_POOL: uid ${uid} belongs to "${account.name}", not to ${name}; choose a range of unused uids`);
  // the home is emptied on every run: only a folder named for this account, never "/" or a shared one
  if (!account.home.startsWith('/') || ![`home_${uid}`, name].includes(basename(account.home))) {
    throw new Error(`SEMAPHORE_PROCESS_UID_POOL: the home of ${name} is "${account.home}"; it must be a folder of its own named home_${uid} or ${name}`);
  }
  return account;
}

async function lookUp(key: string): Promise<PoolAccount | null> {
  const fields = (await run('getent', ['passwd', '--', key])).trim().split(':');
  if (fields.length < 7) return null;
  return { name: fields[0]!, uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5]! };
}

/** stdout, or stderr when the command fails (both empty when it cannot start). */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } }, (err, stdout, stderr) => resolve(err ? String(stderr) : String(stdout)));
  });
}
