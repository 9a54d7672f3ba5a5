import type { App, AppContext } from './app.ts';
import { parseArgList, taskArgsOf } from './app.ts';
import { formatVarValue } from './extra-vars.ts';
import { buildTaskEnv } from './task-env.ts';
import { ownValue } from '../../lib/own-value.ts';

/** The default command and leading arguments of each shell-type app. */
const COMMANDS: Record<string, { command: string; args: string[] }> = {
  bash: { command: 'bash', args: [] },
  python: { command: 'python3', args: [] },
  // PowerShell 7 installs as `pwsh` outside Windows; `apps.powershell.path` overrides it.
  powershell: { command: process.platform === 'win32' ? 'powershell' : 'pwsh', args: ['-File'] },
  pulumi: { command: 'pulumi', args: [] },
};

const END_OF_OPTIONS = new Set(['bash', 'python']);

/**
 * bash, python, powershell, pulumi and custom apps (reference §5.8): the script, template
 * arguments, `name=value` for each extra variable (objects as JSON), then task arguments.
 * Environment per §5.3 including SEMAPHORE_TASK_DETAILS_*. Secret variables travel as
 * environment variables of the same name, never as words of the command line (Semaphore
 * passes them as `name=value` arguments, which `ps` shows to every local user).
 */
export function shellApp(appId: string): App {
  return {
    async run(ctx) {
      const { command, args } = buildShellCommand(appId, ctx);
      const env = { ...buildTaskEnv(ctx.config, ctx.details, ctx.vars, { workDir: ctx.repoDir, shell: true, serverEnv: ctx.serverEnv }), ...ctx.vars.secretVars };
      ctx.beginStage('running');
      await ctx.exec({ command, args, cwd: ctx.repoDir, env });
      return 'success';
    },
  };
}

/** @example buildShellCommand('bash', ctx) // { command: 'bash', args: ['run.sh', 'region=eu'] } */
export function buildShellCommand(appId: string, ctx: AppContext): { command: string; args: string[] } {
  const base = ownValue(COMMANDS, appId) ?? { command: appId, args: [] };
  const args = [...(ctx.appPath ? ctx.appArgs : [...base.args, ...ctx.appArgs])];
  // bash and python read `--` as the end of their own options: the script name is never one
  if (!ctx.appPath && END_OF_OPTIONS.has(appId)) args.push('--');
  args.push(ctx.details.task.playbook || ctx.details.template.playbook);
  args.push(...parseArgList(ctx.details.template.arguments));
  for (const [name, value] of Object.entries(ctx.vars.extraVars)) {
    if (name !== 'semaphore_vars') args.push(`${name}=${formatVarValue(value)}`);
  }
  args.push(...taskArgsOf(ctx.details));
  return { command: ctx.appPath ?? base.command, args };
}
