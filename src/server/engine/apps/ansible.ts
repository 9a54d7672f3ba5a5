import { join, dirname, sep } from 'node:path';
import { existsSync, realpathSync, statSync } from 'node:fs';
import type { App, AppContext } from './app.ts';
import { listParam, parseArgList, taskArgsOf } from './app.ts';
import { buildTaskEnv } from './task-env.ts';
import { galaxyPathsEnv, installGalaxyRequirements } from './galaxy.ts';
import { ansibleVarsFile } from './ansible-unsafe.ts';
import { hostSshConfig } from '../run/host-keys.ts';
import { FACTS_FILE_VAR } from './ansible-facts-callback.ts';
import { limitArgument } from '../../domain/tasks/ansible-host-patterns.ts';

const DEFAULT_DEBUG_LEVEL = 4;

/** ansible-playbook, after galaxy requirements (reference §5.5, §5.6). */
export const ansibleApp: App = {
  async run(ctx) {
    const workDir = ansibleWorkDir(ctx);
    const taskEnv = buildTaskEnv(ctx.config, ctx.details, ctx.vars, { workDir, shell: false, serverEnv: ctx.serverEnv });
    const env = { ...taskEnv, ...galaxyPathsEnv(ctx.taskDir, taskEnv), PYTHONUNBUFFERED: '1', ANSIBLE_FORCE_COLOR: 'True', ...factsEnv(ctx, taskEnv) };
    const playbook = ctx.details.task.playbook || ctx.details.template.playbook;
    // a task without its own choice follows its template's
    if (!(ctx.params.skip_galaxy_install ?? ctx.templateParams.skip_galaxy_install)) await installGalaxyRequirements(ctx, dirname(join(workDir, playbook)), env);
    const command = buildAnsibleCommand(ctx, env);
    ctx.beginStage('running');
    await ctx.exec({ command: ctx.appPath ?? 'ansible-playbook', args: [...ctx.appArgs, ...command.args], cwd: workDir, env: command.env });
    return 'success';
  },
};

/** The facts callback's folder among the callback folders, and the file it writes. */
function factsEnv(ctx: AppContext, env: Record<string, string>): Record<string, string> {
  if (!ctx.facts) return {};
  return { ANSIBLE_CALLBACK_PLUGINS: [env.ANSIBLE_CALLBACK_PLUGINS, ctx.facts.callbackDir].filter(Boolean).join(':'), [FACTS_FILE_VAR]: ctx.facts.file };
}

/**
 * The template's working directory inside the checkout. Saved values are checked as text; here
 * it must also resolve (symlinks followed) to a directory inside the checkout.
 */
function ansibleWorkDir(ctx: AppContext): string {
  const sub = ctx.details.template.working_directory;
  if (!sub) return ctx.repoDir;
  const dir = join(ctx.repoDir, sub);
  const real = existsSync(dir) ? realpathSync(dir) : null;
  const root = realpathSync(ctx.repoDir);
  if (!real || !statSync(real).isDirectory()) throw new Error(`working directory ${JSON.stringify(sub)} is not a directory of the repository`);
  if (real !== root && !real.startsWith(`${root}${sep}`)) throw new Error(`working directory ${JSON.stringify(sub)} resolves outside the repository`);
  return dir;
}

/**
 * ansible-playbook's arguments in Semaphore's order: inventory, user/become, verbosity,
 * --diff/--check, vault ids, --extra-vars file, secrets file, template args, limit/tags/skip-tags,
 * task args, playbook. Passwords go into 0600 files, never onto the command line. Both vars
 * files mark the values of callers who may not edit the template unsafe (ansible-unsafe.ts).
 * @example buildAnsibleCommand(ctx, env).args // ['-i', '/tmp/semaphore/inventory_5', '--extra-vars', '@/tmp/semaphore/task_5/extra_vars.json', ..., 'site.yml']
 */
export function buildAnsibleCommand(ctx: AppContext, baseEnv: Record<string, string>): { args: string[]; env: Record<string, string> } {
  const { details, params, templateParams, files } = ctx;
  const env = { ...baseEnv };
  const args = ['-i', inventoryPath(ctx)];
  const secretVars: Record<string, string> = { ...ctx.vars.secretVars };

  const key = details.inventoryKey;
  // with host configs or extra keys, an ssh_config picks each host's key, the inventory key after it, the template's extra keys last
  const sshConfig = hostSshConfig(details.hostKeys, files, key, details.templateKeys);
  if (sshConfig) env.ANSIBLE_SSH_COMMON_ARGS = `${env.ANSIBLE_SSH_COMMON_ARGS ?? ''} -F '${sshConfig}'`.trim();
  if (key?.type === 'ssh') {
    if (key.login) args.push('--user', key.login);
    if (key.privateKey && !sshConfig) args.push('--private-key', files.write('ssh-key', key.privateKey.endsWith('\n') ? key.privateKey : `${key.privateKey}\n`));
    if (key.passphrase) {
      env.SIGNALBOX_ASKPASS_SECRET = key.passphrase;
      env.SSH_ASKPASS = files.write('askpass', '#!/bin/sh\nprintf "%s\\n" "$SIGNALBOX_ASKPASS_SECRET"\n', 0o700);
      env.SSH_ASKPASS_REQUIRE = 'force';
    }
  } else if (key?.type === 'login_password') {
    if (key.login) args.push('--user', key.login);
    if (key.password) secretVars.ansible_password = key.password;
  } else if (key && key.type !== 'none') {
    throw new Error(`inventory key type ${key.type} is not supported for ansible`);
  }
  const become = details.becomeKey;
  if (become?.type === 'login_password') {
    if (become.login) args.push('--become-user', become.login);
    if (become.password) secretVars.ansible_become_password = become.password;
  }

  if (params.debug && templateParams.allow_debug !== false) args.push(`-${'v'.repeat(debugLevel(params.debug_level))}`);
  if (params.diff) args.push('--diff');
  if (params.dry_run) args.push('--check');

  for (const vault of details.vaults) {
    if (vault.type === 'script') {
      args.push(`--vault-id=${vault.name}@${join(ctx.repoDir, vault.script)}`);
    } else {
      args.push(`--vault-id=${vault.name}@${files.write('vault', vault.password)}`);
    }
  }

  const { untrusted } = ctx.vars;
  // in the task's own directory: the task user reads it, and it goes with the directory
  args.push('--extra-vars', `@${files.writeAt(join(ctx.taskDir, 'extra_vars.json'), ansibleVarsFile(ctx.vars.extraVars, untrusted))}`);
  if (Object.keys(secretVars).length) args.push('--extra-vars', `@${files.write('secret-vars', ansibleVarsFile(secretVars, untrusted))}`);

  args.push(...parseArgList(details.template.arguments));
  const limit = listParam(params.limit ?? templateParams.limit);
  const tags = listParam(params.tags ?? templateParams.tags);
  const skipTags = listParam(params.skip_tags ?? templateParams.skip_tags);
  if (limit.length) args.push(`--limit=${limitArgument(limit)}`);
  if (tags.length) args.push(`--tags=${tags.join(',')}`);
  if (skipTags.length) args.push(`--skip-tags=${skipTags.join(',')}`);
  args.push(...taskArgsOf(details));
  args.push('--', details.task.playbook || details.template.playbook);
  return { args, env };
}

function debugLevel(value: unknown): number {
  const n = Number(value ?? DEFAULT_DEBUG_LEVEL);
  return Number.isInteger(n) ? Math.min(6, Math.max(1, n)) : DEFAULT_DEBUG_LEVEL;
}

/**
 * A static inventory becomes `inventory_<taskId>` in the task's own directory (0600, removed after
 * the run), which a task container has mounted.
 */
function inventoryPath(ctx: AppContext): string {
  const inventory = ctx.details.inventory;
  if (!inventory) throw new Error('ansible needs an inventory; the template has none');
  const base = join(ctx.taskDir, `inventory_${ctx.details.task.id}`);
  switch (inventory.type) {
    case 'static':
      return ctx.files.writeAt(base, inventory.inventory.endsWith('\n') ? inventory.inventory : `${inventory.inventory}\n`);
    case 'static-yaml':
      return ctx.files.writeAt(`${base}.yml`, inventory.inventory);
    case 'file':
    case 'script':
      // a relative path inside the checkout: refuseEscapingPaths checked it before the run
      return join(ctx.inventoryRepoDir ?? ctx.repoDir, inventory.inventory.trim());
    case 'url':
      if (!ctx.sourceInventory) throw new Error('the url inventory was not fetched');
      return ctx.sourceInventory;
    default:
      throw new Error(`inventory type ${inventory.type} cannot be used with ansible`);
  }
}
