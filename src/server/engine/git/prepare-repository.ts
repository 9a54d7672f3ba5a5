import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { KeySecret, RepositoryRow } from '../run/task-details.ts';
import type { SecretFiles } from '../run/secret-files.ts';
import { gitCredentialEnv, gitUrlWithLogin } from './git-credentials.ts';
import { giveToTaskUser, type TaskUser } from '../process/task-user.ts';
import { checkOutRequestedCommit } from './requested-commit.ts';
import { gitQuery, type LoggedExec } from './git-query.ts';
import { withCacheLock } from './cache-lock.ts';


export interface RepositoryCheckout {
  dir: string;
  commitHash: string | null;
  commitMessage: string;
}

export interface PrepareRepositoryInput {
  repository: RepositoryRow;
  key: KeySecret | null;
  /** the run's own working copy under tmpPath, e.g. `repository_3_task_41` (made here, removed by the run) */
  dirName: string;
  tmpPath: string;
  branch: string;
  commitHash: string | null;
  /** the template lets a task choose its branch, so its commit need not be on `branch` */
  anyBranch?: boolean;
  baseEnv: Record<string, string>;
  files: SecretFiles;
  exec: LoggedExec;
  log: (line: string) => void;
  sshConfigPath?: string;
  /** the task user, who must own the working copy while git and the task work in it */
  user?: TaskUser | null;
  /** the repository's object cache, when git runs as the server; none: a plain clone as the task user */
  cache?: CacheUse | null;
}

/** How a working copy borrows from the repository's object cache. */
export interface CacheUse {
  /** runs git as the server (the cache is never the task's) */
  exec: LoggedExec;
  /** a wait for the cache's lock gives up when this aborts (the task was stopped) */
  signal?: AbortSignal;
  /** copy the objects instead of borrowing them (a container sees only its working copy) */
  selfContained: boolean;
}

const COMMIT_MESSAGE_CHARS = 100;

/** The folder of a repository's object cache under tmp_path; its name starts like the clones `clearRepositoryClones` removes. */
export function cacheDirName(repositoryId: number): string {
  return `repository_${repositoryId}_cache`;
}

/** A run's own working copy of a repository under tmp_path. */
export function workingCopyDirName(repositoryId: number, taskId: number): string {
  return `repository_${repositoryId}_task_${taskId}`;
}

/**
 * Makes the repository's files available for a run (reference §5.2): a local path is used in
 * place; otherwise the run gets a working copy of its own (`dirName`, made afresh), so parallel
 * runs of one template never share files. With a cache, the repository's bare object cache is
 * fetched under its lock and the working copy cloned from it (borrowing its objects), so only
 * what is new comes over the network. Checks out `commitHash` when given (requested-commit.ts
 * says which may run) and reports the commit.
 * @example const { dir, commitHash } = await prepareRepository({ repository, key, dirName: 'repository_1_task_9', cache: { exec, selfContained: false }, ... });
 */
export async function prepareRepository(input: PrepareRepositoryInput): Promise<RepositoryCheckout> {
  const { repository } = input;
  if (repository.git_url.startsWith('/')) {
    input.log(`Using local repository ${repository.git_url}`);
    return { dir: repository.git_url, ...(await readCommit(repository.git_url, input.user, input.baseEnv)) };
  }
  refuseOptionLikeRefs(input.branch, input.commitHash);
  const env = { ...input.baseEnv, ...gitCredentialEnv(input.key, input.files, input.sshConfigPath) };
  const url = gitUrlWithLogin(repository.git_url, input.key);
  const dir = join(input.tmpPath, input.dirName);
  const user = input.user ?? null;
  rmSync(dir, { recursive: true, force: true });
  input.log(`Cloning repository ${repository.git_url}`);
  if (input.cache) {
    await cloneFromCache(input, input.cache, url, env);
    await input.exec('git', ['remote', 'set-url', '--end-of-options', 'origin', url], dir, env);
  } else {
    // Made here so a task user, who may not write in tmp_path, can clone into it.
    mkdirSync(dir, { mode: 0o700 });
    giveToTaskUser(dir, user);
    await input.exec('git', ['clone', '--branch', input.branch, '--end-of-options', url, input.dirName], input.tmpPath, env);
  }
  // submodules come over the same credentials (GIT_SSH_COMMAND / GIT_ASKPASS) as the repository
  if (repository.pull_submodules) await input.exec('git', ['submodule', 'update', '--init', '--recursive'], dir, env);
  if (input.commitHash) {
    await checkOutRequestedCommit({ dir, branch: input.branch, commitHash: input.commitHash, anyBranch: input.anyBranch ?? false, env, exec: input.exec, user });
  }
  return { dir, ...(await readCommit(dir, user, input.baseEnv)) };
}

/**
 * Under the cache's lock (two runs fetching into one repository at once would fight over its
 * refs, and a clone must not read a pack a fetch is replacing): makes the bare cache when
 * missing, fetches every branch and tag into it, and clones the run's working copy from it. A
 * cache git cannot fetch into (a crash halfway through making it) is made again once. The URL is
 * given on the command line only, so no login is stored in the cache.
 */
async function cloneFromCache(input: PrepareRepositoryInput, cache: CacheUse, url: string, env: Record<string, string>): Promise<void> {
  const cacheDir = join(input.tmpPath, cacheDirName(input.repository.id));
  const git = (args: string[], cwd = input.tmpPath) => cache.exec('git', args, cwd, env);
  // named, not found from the folder: a broken cache must never make git look for a repository above it
  const inCache = `--git-dir=${cacheDir}`;
  const fetchIntoCache = () => git([inCache, 'fetch', '--prune', '--no-tags', '--end-of-options', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']);
  const make = async () => {
    rmSync(cacheDir, { recursive: true, force: true });
    await git(['init', '--bare', '--quiet', '--', cacheDir]);
    // git's own housekeeping after a fetch runs inside the fetch (under this lock), not detached
    // after it; it drops unreachable objects only weeks later, long after runs borrowing them end
    await git([inCache, 'config', 'gc.autoDetach', 'false']);
  };
  await withCacheLock(`${cacheDir}.lock`, cache.signal, async () => {
    if (!existsSync(join(cacheDir, 'HEAD'))) {
      await make();
      await fetchIntoCache();
    } else {
      input.log(`Using the object cache of repository ${input.repository.git_url}`);
      await fetchIntoCache().catch(async (err: unknown) => {
        if (cache.signal?.aborted) throw err;
        input.log('Fetching into the object cache failed; making it again');
        await make();
        await fetchIntoCache();
      });
    }
    const borrow = cache.selfContained ? ['--no-hardlinks'] : ['--shared'];
    await git(['clone', '--quiet', ...borrow, '--branch', input.branch, '--end-of-options', cacheDir, input.dirName]);
  });
  const dir = join(input.tmpPath, input.dirName);
  chmodSync(dir, 0o700);
  giveToTaskUser(dir, input.user ?? null);
}

/**
 * Checked again at run time, whatever path queued the task: a branch or commit that git would
 * read as an option (`--upload-pack=…`) never reaches its command line.
 */
function refuseOptionLikeRefs(branch: string, commitHash: string | null | undefined): void {
  if (branch.replace(/^refs\/heads\//, '').startsWith('-') || branch.startsWith('-')) throw new Error(`refusing branch name ${JSON.stringify(branch)}`);
  if (commitHash && !/^[0-9a-f]{4,64}$/i.test(commitHash)) throw new Error(`refusing commit ${JSON.stringify(commitHash)}`);
}

/** HEAD's hash and message (first 100 characters); nulls outside a git work tree. */
export async function readCommit(dir: string, user: TaskUser | null = null, env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' }): Promise<{ commitHash: string | null; commitMessage: string }> {
  // a plain directory (a local repository that is not a work tree) costs no git process per task
  if (!insideGitWorkTree(dir)) return { commitHash: null, commitMessage: '' };
  const out = await gitQuery(dir, ['log', '-1', '--format=%H%x00%B'], env, user);
  if (!out) return { commitHash: null, commitMessage: '' };
  const [hash, message = ''] = out.split('\0');
  return { commitHash: hash!.trim() || null, commitMessage: message.trim().slice(0, COMMIT_MESSAGE_CHARS) };
}

/** Whether `dir` or a folder above it holds `.git` (a directory, or a file in a linked work tree). */
function insideGitWorkTree(dir: string): boolean {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}
