import { join } from 'node:path';
import type { App, AppContext } from './app.ts';
import { taskArgsOf } from './app.ts';
import { buildTaskEnv } from './task-env.ts';
import { captureTerraformOutputs } from './terraform-outputs.ts';

/**
 * terraform / tofu (reference §5.7): init, workspace select-or-create, plan; then stop when
 * nothing changes or only a plan was asked for, apply at once with auto_approve, or wait in
 * `waiting_confirmation` for confirm (apply) or reject (`rejected`, nothing applied).
 */
export function terraformApp(binary: 'terraform' | 'tofu'): App {
  return {
    async run(ctx) {
      const { details, params } = ctx;
      const cwd = join(ctx.repoDir, details.template.playbook || '');
      const env: Record<string, string> = { ...buildTaskEnv(ctx.config, details, ctx.vars, { workDir: cwd, shell: false, serverEnv: ctx.serverEnv }), TF_IN_AUTOMATION: '1', TF_INPUT: '0' };
      // Secrets travel as TF_VAR_* so they never show on a command line.
      for (const [name, value] of Object.entries(ctx.vars.secretVars)) env[`TF_VAR_${name}`] = value;
      // The workspace's state lives in Signalbox's HTTP backend when the code declares `backend "http"`.
      Object.assign(env, await ctx.stateBackendEnv());
      const command = ctx.appPath ?? binary;
      const stageArgs = terraformStageArgs(details.template.arguments);
      const run = (args: string[], onLine?: (line: string) => void) => ctx.exec({ command, args: [...ctx.appArgs, ...args], cwd, env, onLine });
      // a workflow's task hands its outputs on (after a successful run only)
      const keepOutputs = async () => {
        const file = details.workflow?.outputsFile;
        if (!file) return;
        const lines: string[] = [];
        await ctx.exec({ command, args: [...ctx.appArgs, 'output', '-json'], cwd, env, onLine: (line) => lines.push(line), quiet: true });
        for (const skipped of captureTerraformOutputs(lines.join('\n'), file)) ctx.log(`Output "${skipped.name}" not captured: ${skipped.reason}`);
      };

      await run(['init', '-input=false', ...(params.upgrade ? ['-upgrade'] : []), ...(params.reconfigure ? ['-reconfigure'] : []), ...stageArgs.init]);
      await run(['workspace', 'select', '-or-create=true', workspaceOf(ctx)]);
      const changeArgs = [...(params.destroy ? ['-destroy'] : []), ...stageArgs.default, ...varArgs(ctx), ...taskArgsOf(details)];
      let noChanges = false;
      ctx.beginStage('terraform_plan');
      await run(['plan', '-input=false', ...changeArgs], (line) => { if (line.includes('No changes.')) noChanges = true; });
      if (noChanges) {
        await keepOutputs();
        return 'success';
      }
      if (params.plan) return 'success';
      const autoApprove = Boolean(params.auto_approve) && ctx.templateParams.allow_auto_approve !== false;
      if (!autoApprove) {
        await ctx.setStatus('waiting_confirmation');
        const decision = await ctx.waitForDecision();
        if (decision === 'rejected') {
          ctx.log('The plan was rejected; nothing applied.');
          return 'rejected';
        }
        if (decision === 'stopped') throw new Error('stopped while waiting for confirmation');
        await ctx.setStatus('running');
      }
      ctx.beginStage('running');
      await run(['apply', '-auto-approve', '-input=false', ...changeArgs]);
      await keepOutputs();
      return 'success';
    },
  };
}

/**
 * Every extra variable except semaphore_vars, in a JSON `-var-file` in the task's directory:
 * terraform takes its strings as strings, where a `-var` value for a variable of type `any` is
 * parsed as an expression (and values stay off the command line).
 */
function varArgs(ctx: AppContext): string[] {
  const vars = Object.fromEntries(Object.entries(ctx.vars.extraVars).filter(([name]) => name !== 'semaphore_vars'));
  if (!Object.keys(vars).length) return [];
  return [`-var-file=${ctx.files.writeAt(join(ctx.taskDir, 'terraform_vars.tfvars.json'), JSON.stringify(vars))}`];
}

function workspaceOf(ctx: AppContext): string {
  const inventory = ctx.details.inventory;
  if (inventory && (inventory.type === 'terraform-workspace' || inventory.type === 'tofu-workspace') && inventory.inventory.trim()) return inventory.inventory.trim();
  return 'default';
}

/** Template arguments: an array (all stages) or an object keyed by stage (`init`, `default`). */
export function terraformStageArgs(text: string | null): { init: string[]; default: string[] } {
  if (!text) return { init: [], default: [] };
  try {
    const value = JSON.parse(text);
    if (Array.isArray(value)) return { init: [], default: value.map(String) };
    if (value && typeof value === 'object') {
      const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
      return { init: list(value.init), default: list(value.default) };
    }
  } catch { /* not JSON: no arguments */ }
  return { init: [], default: [] };
}
