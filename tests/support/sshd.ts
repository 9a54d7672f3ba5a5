import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './git-daemon.ts';
import { createGitRepo } from './git-repo.ts';

export const SSHD_PATH = '/usr/sbin/sshd';

export interface SshKeyPair { privateKey: string; publicKey: string }

/** A fresh passphrase-less ed25519 key pair from ssh-keygen. */
export function makeSshKeyPair(dir: string, name: string): SshKeyPair {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', path]);
  return { privateKey: readFileSync(path, 'utf8'), publicKey: readFileSync(`${path}.pub`, 'utf8') };
}

export interface TestSshd {
  port: number;
  user: string;
  /** a directory the test may put bare repositories in, reachable as `ssh://user@127.0.0.1:port/<dir>/…` */
  dir: string;
  stop: () => void;
}

/**
 * A private OpenSSH server on a free loopback port: its own host key and config, public-key
 * login only, for exactly the `authorized` keys, as the user running the tests. Needs Debian's
 * openssh-server (/usr/sbin/sshd).
 * @example const sshd = await startSshd([pair.publicKey]); ...; sshd.stop();
 */
export async function startSshd(authorized: string[]): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'test-sshd-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  writeFileSync(join(dir, 'authorized_keys'), authorized.join('\n'), { mode: 0o600 });
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const user = userInfo().username;
  writeFileSync(join(dir, 'sshd_config'), [
    `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${join(dir, 'host_key')}`, `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`, 'PubkeyAuthentication yes', 'PasswordAuthentication no',
    'KbdInteractiveAuthentication no', 'UsePAM no', 'StrictModes no', `AllowUsers ${user}`,
    user === 'root' ? 'PermitRootLogin prohibit-password' : '', 'LogLevel VERBOSE',
  ].join('\n'));
  const sshd: ChildProcess = spawn(SSHD_PATH, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  sshd.stderr!.on('data', (chunk: Buffer) => { log += chunk.toString(); });
  await waitForPort(port, () => log);
  return {
    port, user, dir,
    stop: () => { sshd.kill(); rmSync(dir, { recursive: true, force: true }); },
  };
}

async function waitForPort(port: number, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.end(); resolve(true); }).on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`sshd did not listen on ${port}: ${log()}`);
}

/**
 * Bare repositories on the sshd: `lib.git` (lib.txt: "from-lib") and `site.git` holding `files`
 * and `lib.git` as the submodule `lib`, both addressed over SSH. Answers site.git's URL.
 * @example const url = serveSiteWithSubmodule(sshd, { 'run.sh': 'cat lib/lib.txt\n' });
 */
export function serveSiteWithSubmodule(sshd: TestSshd, files: Record<string, string>): string {
  const sshBase = `ssh://${sshd.user}@127.0.0.1:${sshd.port}${sshd.dir}`;
  const lib = createGitRepo(join(sshd.dir, 'lib-work'), { 'lib.txt': 'from-lib\n' });
  execFileSync('git', ['clone', '-q', '--bare', lib.path, join(sshd.dir, 'lib.git')]);
  const site = createGitRepo(join(sshd.dir, 'site-work'), { ...files, '.gitmodules': `[submodule "lib"]\n\tpath = lib\n\turl = ${sshBase}/lib.git\n` });
  execFileSync('git', ['update-index', '--add', '--cacheinfo', `160000,${lib.hash},lib`], { cwd: site.path });
  // committed directly: `git add -A` would drop the gitlink, whose folder is not checked out here
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.test', 'commit', '-q', '-m', 'Add the lib submodule'], { cwd: site.path });
  execFileSync('git', ['clone', '-q', '--bare', site.path, join(sshd.dir, 'site.git')]);
  return `${sshBase}/site.git`;
}
