import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Removes every cached clone of a repository (`<tmp_path>/repository_<id>_*`), so the next task
 * clones afresh from the new URL or with the new key. A missing tmp directory is fine.
 * @example clearRepositoryClones(config.tmp_path, 7); // removes repository_7_12, not repository_71_3
 */
export function clearRepositoryClones(tmpPath: string, repositoryId: number): void {
  let entries: string[];
  try {
    entries = readdirSync(tmpPath);
  } catch {
    return;
  }
  const prefix = `repository_${repositoryId}_`;
  for (const entry of entries) {
    if (entry.startsWith(prefix)) rmSync(join(tmpPath, entry), { recursive: true, force: true });
  }
}
