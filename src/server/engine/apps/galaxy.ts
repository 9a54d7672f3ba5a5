import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from './app.ts';

/** Requirement files, relative to the playbook's directory, and what installs them. */
const REQUIREMENTS: { file: string; kind: 'collection' | 'role' }[] = [
  { file: 'collections/requirements.yml', kind: 'collection' },
  { file: 'requirements.yml', kind: 'collection' },
  { file: 'roles/requirements.yml', kind: 'role' },
  { file: 'requirements.yml', kind: 'role' },
];

/**
 * Installs galaxy collections and roles (reference §5.6), skipping a file whose MD5 matches
 * the `<file>.md5` written after its last successful install. With a HOME of the task's own
 * (a container), every run installs into it: nothing is shared with other tasks, and nothing
 * is left for the next one.
 * @example await installGalaxyRequirements(ctx, playbookDir, env);
 */
export async function installGalaxyRequirements(ctx: AppContext, playbookDir: string, env: Record<string, string>): Promise<void> {
  for (const { file, kind } of REQUIREMENTS) {
    const path = join(playbookDir, file);
    if (!existsSync(path)) {
      ctx.log(`No ${file} file found. Skip galaxy ${kind} install process.`);
      continue;
    }
    const hash = createHash('md5').update(readFileSync(path)).digest('hex');
    const hashFile = `${path}.${kind}.md5`;
    if (!ctx.freshHome && existsSync(hashFile) && readFileSync(hashFile, 'utf8').trim() === hash) {
      ctx.log(`${file} has not changed. Skip galaxy ${kind} install process.`);
      continue;
    }
    await ctx.exec({ command: 'ansible-galaxy', args: [kind, 'install', '-r', path, '--force'], cwd: playbookDir, env });
    if (!ctx.freshHome) writeFileSync(hashFile, hash);
  }
}
