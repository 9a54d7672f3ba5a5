import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Deps } from '../../deps.ts';

/** The repository fields `git ls-remote` needs. */
export interface RemoteRepository {
  git_url: string;
  git_branch: string;
  ssh_key_id: number;
}

const LS_REMOTE_TIMEOUT_MS = 60_000;

/**
 * Asks the remote for the head commit of the repository's branch with `git ls-remote`.
 * @example const head = await readRemoteHead(deps, { git_url: '/srv/repo.git', git_branch: 'main', ssh_key_id: 1 });
 */
export async function readRemoteHead(deps: Deps, repository: RemoteRepository): Promise<string> {
  const ref = `refs/heads/${repository.git_branch}`;
  const head = (await listRemoteRefs(deps, repository, [ref])).find((r) => r.ref === ref)?.hash;
  if (!head) throw new Error(`branch ${repository.git_branch} not found in ${repository.git_url}`);
  return head;
}

/**
 * Lists the remote's refs (`git ls-remote --heads`, optionally only `patterns`), using the
 * repository's key: an SSH private key (written to a 0600 file that is removed afterwards) or a
 * login/password put into an http(s) URL. Local paths work without a key. The URL follows `--`,
 * so it is never read as an option.
 * Key secrets are sealed JSON: ssh `{login, passphrase, private_key}`, login_password `{login, password}`;
 * passphrase-protected SSH keys are not supported here (ssh runs in batch mode and fails).
 * @example const refs = await listRemoteRefs(deps, repository); // [{ hash: 'ab12…', ref: 'refs/heads/main' }]
 */
export async function listRemoteRefs(
  deps: Deps, repository: Pick<RemoteRepository, 'git_url' | 'ssh_key_id'>, patterns: string[] = [], timeoutMs = LS_REMOTE_TIMEOUT_MS,
): Promise<{ hash: string; ref: string }[]> {
  const key = await deps.db.selectFrom('access_key').select(['type', 'secret']).where('id', '=', repository.ssh_key_id).executeTakeFirst();
  const secret = key?.secret ? JSON.parse(deps.secrets.open(key.secret)) as Record<string, string> : {};
  let url = repository.git_url;
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  let keyDir: string | undefined;
  try {
    if (key?.type === 'ssh' && secret.private_key) {
      keyDir = await mkdtemp(join(tmpdir(), 'signalbox-key-'));
      const keyFile = join(keyDir, 'id');
      await writeFile(keyFile, secret.private_key.endsWith('\n') ? secret.private_key : `${secret.private_key}\n`, { mode: 0o600 });
      env.GIT_SSH_COMMAND = `ssh -i '${keyFile}' -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null`;
    } else if (key?.type === 'login_password' && /^https?:\/\//i.test(url)) {
      url = withCredentials(url, secret.login ?? '', secret.password ?? '');
    }
    const output = await runGit(['ls-remote', '--heads', '--', url, ...patterns], env, url, repository.git_url, timeoutMs);
    return output.split('\n').filter(Boolean).map((line) => {
      const [hash = '', ref = ''] = line.split('\t');
      return { hash, ref };
    });
  } finally {
    if (keyDir) await rm(keyDir, { recursive: true, force: true });
  }
}

function withCredentials(url: string, login: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(login);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** Runs git; error messages never carry the credential-bearing URL. */
function runGit(args: string[], env: NodeJS.ProcessEnv, secretUrl: string, publicUrl: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if (err.killed) return reject(new Error(`git ls-remote ${publicUrl} did not answer within ${Math.round(timeoutMs / 1000)} seconds`));
      const detail = (stderr || err.message).split(secretUrl).join(publicUrl).trim();
      reject(new Error(`git ls-remote ${publicUrl} failed: ${detail}`));
    });
  });
}
