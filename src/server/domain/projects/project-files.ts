import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { clearRepositoryClones } from '../repositories/repository-cache.ts';

/**
 * Removes a project's working files: `<tmp_path>/project_<id>` and the cached clones
 * `<tmp_path>/repository_<repoId>_*` of its repositories. Missing folders are fine.
 * Used when a project is deleted and by "clear cache".
 * @example await removeProjectFiles('/tmp/semaphore', 3, [7, 8]);
 */
export async function removeProjectFiles(tmpPath: string, projectId: number, repositoryIds: number[]): Promise<void> {
  await rm(join(tmpPath, `project_${projectId}`), { recursive: true, force: true });
  for (const id of repositoryIds) clearRepositoryClones(tmpPath, id);
}
