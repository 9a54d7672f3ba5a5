import type { Deps } from '../../deps.ts';
import type { RepositoryTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
import { badRequest } from '../../http/errors.ts';
import { listRemoteRefs } from './remote-head.ts';
import { classifyRepositoryUrl } from './repository-url.ts';

/** A form waits for this answer, so a remote that hangs is given up on sooner than a schedule's. */
const BRANCHES_TIMEOUT_MS = 20_000;

/**
 * The repository's branch names (`git ls-remote --heads` with the repository's key), sorted:
 * of a remote, of a `file://` repository (the demo's), and of a local directory. A local directory
 * is used in place and need not be a git repository: one that is not has no branches (an empty
 * list, so that a form asking never meets an error). A remote that fails or does not answer in
 * time is a 400 naming the repository.
 * @example await listRemoteBranches(deps, repository) // ['develop', 'main']
 */
export async function listRemoteBranches(deps: Deps, repository: Selectable<RepositoryTable>): Promise<string[]> {
  const type = classifyRepositoryUrl(repository.git_url);
  if (type === null) throw badRequest('Wrong repository type: unknown');
  let refs;
  try {
    refs = await listRemoteRefs(deps, repository, [], BRANCHES_TIMEOUT_MS);
  } catch (err) {
    if (type === 'local') return [];
    throw badRequest((err as Error).message);
  }
  return refs.filter((r) => r.ref.startsWith('refs/heads/')).map((r) => r.ref.slice('refs/heads/'.length)).sort();
}
