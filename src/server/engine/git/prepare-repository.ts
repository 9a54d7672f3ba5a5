import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { KeySecret, RepositoryRow } from '../run/task-details.ts';
import type { SecretFiles } from '../run/secret-files.ts';
import { gitCredentialEnv, gitUrlWithLogin } from './git-credentials.ts';
import { giveToTaskUser, type TaskUser } from '../process/task-user.ts';
import { checkOutRequestedCommit } from './requested-commit.ts';
import { gitQuery, type LoggedExec } from './git-query.ts';


export interface RepositoryCheckout {
  dir: string;
  commitHash: string | null;
  commitMessage: string;
}

export interface PrepareRepositoryInput {
  repository: RepositoryRow;
  key: KeySecret | null;
  /** clone directory name under tmpPath, e.g. `repository_3_7` */
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
  /** the task user, who must own the clone while git and the task work in it */
  user?: TaskUser | null;
}

const COMMIT_MESSAGE_CHARS = 100;

/**
 * Makes the repository's files available for a run (reference §5.2): a local path is used in
 * place; otherwise the per-(repository, template) clone is fetched and reset to the branch, or
 * cloned afresh when that fails. Checks out `commitHash` when given (requested-commit.ts says
 * which may run) and reports the commit.
 * @example const { dir, commitHash } = await prepareRepository({ repository, key, dirName: 'repository_1_2', ... });
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
  let updated = false;
  const user = input.user ?? null;
  if (existsSync(join(dir, '.git'))) {
    giveToTaskUser(dir, user);
    input.log(`Updating repository ${repository.git_url}`);
    try {
      await input.exec('git', ['remote', 'set-url', '--end-of-options', 'origin', url], dir, env);
      await input.exec('git', ['fetch', '--prune', '--end-of-options', 'origin', input.branch], dir, env);
      // checkout has no --end-of-options (git 2.39): the branch is -B's value, `--` ends the refs
      await input.exec('git', ['checkout', '-f', '-B', input.branch, 'FETCH_HEAD', '--'], dir, env);
      if (repository.pull_submodules) await input.exec('git', ['submodule', 'update', '--init', '--recursive'], dir, env);
      updated = true;
    } catch {
      input.log('Updating the repository failed; cloning it again');
    }
  }
  if (!updated) {
    rmSync(dir, { recursive: true, force: true });
    // Made here so a task user, who may not write in tmp_path, can clone into it.
    mkdirSync(dir, { mode: 0o700 });
    giveToTaskUser(dir, user);
    input.log(`Cloning repository ${repository.git_url}`);
    // submodules come over the same credentials (GIT_SSH_COMMAND / GIT_ASKPASS) as the repository
    const recursive = repository.pull_submodules ? ['--recursive'] : [];
    await input.exec('git', ['clone', ...recursive, '--branch', input.branch, '--end-of-options', url, input.dirName], input.tmpPath, env);
  }
  if (input.commitHash) {
    await checkOutRequestedCommit({ dir, branch: input.branch, commitHash: input.commitHash, anyBranch: input.anyBranch ?? false, env, exec: input.exec, user });
  }
  return { dir, ...(await readCommit(dir, user, input.baseEnv)) };
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
