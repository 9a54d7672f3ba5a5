import type { TaskUser } from '../process/task-user.ts';
import { gitQuery, type LoggedExec } from './git-query.ts';

export interface RequestedCommit {
  /** the clone, at the tip of the branch the run uses */
  dir: string;
  branch: string;
  commitHash: string;
  /** the template lets a task choose its branch: any commit of the repository may run */
  anyBranch: boolean;
  env: Record<string, string>;
  exec: LoggedExec;
  user: TaskUser | null;
}

/**
 * Run-time rule, whatever started the task (API, webhook value, schedule, workflow, re-run): a
 * commit runs only when the template lets a task choose its branch, or when it is on the
 * template's branch (an ancestor of the tip just fetched). The commit is resolved once to its
 * full id and that id is both checked and checked out (detached), so a branch or tag named
 * like a hash cannot make git check out something else than what was checked.
 * @example await checkOutRequestedCommit({ dir, branch: 'main', commitHash: '85d2bf6', anyBranch: false, env, exec, user });
 */
export async function checkOutRequestedCommit(input: RequestedCommit): Promise<void> {
  const { dir, env, user } = input;
  const commit = (await gitQuery(dir, ['rev-parse', '--verify', '--quiet', `${input.commitHash}^{commit}`], env, user))?.trim();
  if (!commit) throw new Error(`commit ${input.commitHash} is not in the repository`);
  if (!input.anyBranch && (await gitQuery(dir, ['merge-base', '--is-ancestor', commit, 'HEAD'], env, user)) === null) {
    throw new Error(`commit ${input.commitHash} is not on branch ${input.branch}, and the template does not let a task choose its branch`);
  }
  await input.exec('git', ['checkout', '-f', '--detach', commit, '--'], dir, env);
}
