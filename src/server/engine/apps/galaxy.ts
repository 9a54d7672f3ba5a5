import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from './app.ts';

/** Requirement files, relative to the playbook's directory, and what installs them. */
const REQUIREMENTS: { file: string; kind: 'collection' | 'role' }[] = [
  { file: 'collections/requirements.yml', kind: 'collection' },
  { file: 'requirements.yml', kind: 'collection' },
  { file: 'roles/requirements.yml', kind: 'role' },
  { file: 'requirements.yml', kind: 'role' },
];

/** Where ansible looks after the run's own folder: what the administrator set, else its system-wide folders. */
const SYSTEM_PATHS = {
  ANSIBLE_COLLECTIONS_PATH: '/usr/share/ansible/collections',
  ANSIBLE_ROLES_PATH: '/usr/share/ansible/roles:/etc/ansible/roles',
};

/**
 * The run's own galaxy folders, first on ansible's search paths (ansible-galaxy installs into
 * the first one): parallel runs of one template never install over each other (Semaphore
 * #3236). A variable the administrator or the variable group set stays behind them; roles and
 * collections next to the playbook are found by ansible as always.
 * @example galaxyPathsEnv('/tmp/semaphore/task_9', {}).ANSIBLE_ROLES_PATH // '/tmp/semaphore/task_9/galaxy/roles:/usr/share/ansible/roles:/etc/ansible/roles'
 */
export function galaxyPathsEnv(taskDir: string, env: Record<string, string>): Record<string, string> {
  const own = { ANSIBLE_COLLECTIONS_PATH: join(taskDir, 'galaxy', 'collections'), ANSIBLE_ROLES_PATH: join(taskDir, 'galaxy', 'roles') };
  const paths: Record<string, string> = {};
  for (const [name, dir] of Object.entries(own) as [keyof typeof SYSTEM_PATHS, string][]) paths[name] = `${dir}:${env[name] || SYSTEM_PATHS[name]}`;
  return paths;
}

/**
 * Installs galaxy collections and roles (reference §5.6) into the run's own folders
 * (`galaxyPathsEnv`, already in `env`). They start empty, so every run installs: Semaphore's
 * "not changed, skip" would leave them empty.
 * @example await installGalaxyRequirements(ctx, playbookDir, env);
 */
export async function installGalaxyRequirements(ctx: AppContext, playbookDir: string, env: Record<string, string>): Promise<void> {
  for (const { file, kind } of REQUIREMENTS) {
    const path = join(playbookDir, file);
    if (!existsSync(path)) {
      ctx.log(`No ${file} file found. Skip galaxy ${kind} install process.`);
      continue;
    }
    await ctx.exec({ command: 'ansible-galaxy', args: [kind, 'install', '-r', path, '--force'], cwd: playbookDir, env });
  }
}
