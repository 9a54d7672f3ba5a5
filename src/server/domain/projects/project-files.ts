import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes a deleted project's working files: `<tmp_path>/project_<id>` and the cached clones
 * `<tmp_path>/repository_<repoId>_*` of its repositories. Missing folders are fine.
 * @example await removeProjectFiles('/tmp/semaphore', 3, [7, 8]);
 */
export async function removeProjectFiles(tmpPath: string, projectId: number, repositoryIds: number[]): Promise<void> {
  await rm(join(tmpPath, `project_${projectId}`), { recursive: true, force: true });
  if (!repositoryIds.length) return;
  const entries = await readdir(tmpPath).catch(() => [] as string[]);
  const prefixes = repositoryIds.map((id) => `repository_${id}_`);
  const clones = entries.filter((name) => prefixes.some((prefix) => name.startsWith(prefix)));
  await Promise.all(clones.map((name) => rm(join(tmpPath, name), { recursive: true, force: true })));
}
