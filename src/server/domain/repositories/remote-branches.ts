import type { Deps } from '../../deps.ts';
import type { RepositoryTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
import { badRequest } from '../../http/errors.ts';
import { listRemoteRefs } from '../../scheduler/remote-head.ts';
import { classifyRepositoryUrl } from './repository-url.ts';

/** A form waits for this answer, so a remote that hangs is given up on sooner than a schedule's. */
const BRANCHES_TIMEOUT_MS = 20_000;

/**
 * The remote's branch names (`git ls-remote --heads` with the repository's key), sorted. Local
 * directories and `file://` repositories have no remote to ask: 400 "Wrong repository type", as
 * in Semaphore. A remote that fails or does not answer in time is a 400 naming the repository.
 * @example await listRemoteBranches(deps, repository) // ['develop', 'main']
 */
export async function listRemoteBranches(deps: Deps, repository: Selectable<RepositoryTable>): Promise<string[]> {
  const type = classifyRepositoryUrl(repository.git_url);
  if (type === 'local' || type === 'file' || type === null) throw badRequest(`Wrong repository type: ${type ?? 'unknown'}`);
  let refs;
  try {
    refs = await listRemoteRefs(deps, repository, [], BRANCHES_TIMEOUT_MS);
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  return refs.filter((r) => r.ref.startsWith('refs/heads/')).map((r) => r.ref.slice('refs/heads/'.length)).sort();
}
