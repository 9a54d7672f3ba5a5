import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../../paths.ts';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The files shipped for the demo repository (ping playbook, build and deploy scripts). */
export const DEMO_FILES_DIR = join(ROOT_DIR, 'src/server/domain/demo/files') + '/';

/** Where the demo repository of a project lives: `<tmp_path>/demo_repository_<projectId>`. */
export function demoRepositoryPath(tmpPath: string, projectId: number): string {
  return join(tmpPath, `demo_repository_${projectId}`);
}

/**
 * Creates a real git repository (branch `main`, one commit) holding the demo files, so the demo
 * project runs without internet access. Replaces whatever was at `dir`.
 * @example await createDemoRepository('/tmp/semaphore/demo_repository_3');
 */
export async function createDemoRepository(dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(DEMO_FILES_DIR)) {
    copyFileSync(join(DEMO_FILES_DIR, name), join(dir, name));
    if (name.endsWith('.sh')) chmodSync(join(dir, name), 0o755 | statSync(join(dir, name)).mode);
  }
  const git = (...args: string[]) => run('git', ['-c', 'user.name=Signalbox', '-c', 'user.email=signalbox@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd: dir });
  await git('init', '--quiet', '--initial-branch=main');
  await git('add', '--all');
  await git('commit', '--quiet', '--message', 'Signalbox demo project');
}
