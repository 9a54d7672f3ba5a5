import type { Config } from '../../config/config.ts';
import type { TaskDetails } from '../run/task-details.ts';
import type { RunVariables } from './extra-vars.ts';
import { taskDetailsVars } from './extra-vars.ts';

/** Server variables every child needs to work at all (the locale matters to ansible). */
const BASE_VARS = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR'];

/**
 * The process environment of a run (reference §5.3): PATH and locale, `forwarded_env_vars`,
 * config `env_vars`, HOME and PWD, the variable group's `env` and env secrets, survey values
 * aimed at env, and SEMAPHORE_TASK_* for build/deploy and shell-type apps.
 * @example const env = buildTaskEnv(config, details, vars, { workDir, shell: true });
 */
export function buildTaskEnv(config: Config, details: TaskDetails, vars: RunVariables, options: { workDir: string; shell: boolean; serverEnv?: NodeJS.ProcessEnv }): Record<string, string> {
  const server = options.serverEnv ?? process.env;
  const env: Record<string, string> = {};
  for (const name of [...BASE_VARS, ...config.forwarded_env_vars]) {
    const value = server[name];
    if (value !== undefined) env[name] = value;
  }
  env.LANG ??= 'C.UTF-8';
  Object.assign(env, config.env_vars);
  env.HOME = config.tmp_path;
  env.PWD = options.workDir;
  Object.assign(env, details.variables.env, details.variables.envSecrets, vars.envVars);
  if (details.jwt) env.SEMAPHORE_JWT = details.jwt;
  const { template, task } = details;
  if (template.type === 'build' || template.type === 'deploy') {
    env.SEMAPHORE_TASK_TYPE = template.type;
    if (details.incomingVersion) env.SEMAPHORE_TASK_INCOMING_VERSION = details.incomingVersion;
    if (template.type === 'build' && task.version) env.SEMAPHORE_TASK_TARGET_VERSION = task.version;
  }
  if (details.workflow) Object.assign(env, workflowEnv(details.workflow, template.app || 'ansible', env));
  if (options.shell) {
    for (const [key, value] of Object.entries(taskDetailsVars(details, config.web_host))) {
      if (value === null || value === undefined) continue;
      env[`SEMAPHORE_TASK_DETAILS_${key.toUpperCase()}`] = String(value);
    }
  }
  return env;
}

/**
 * What a task a workflow run started gets (Semaphore's names): the workflow, the run, the run
 * page, and the file its outputs go to; Ansible also gets the callback that writes `set_stats` there.
 */
function workflowEnv(flow: NonNullable<TaskDetails['workflow']>, app: string, env: Record<string, string>): Record<string, string> {
  const vars: Record<string, string> = {
    SEMAPHORE_WORKFLOW_ID: String(flow.workflowId),
    SEMAPHORE_WORKFLOW_RUN_ID: String(flow.runId),
    SEMAPHORE_WORKFLOW_URL: flow.url,
    SEMAPHORE_OUTPUTS_FILE: flow.outputsFile,
  };
  if (app === 'ansible') {
    vars.ANSIBLE_CALLBACK_PLUGINS = [env.ANSIBLE_CALLBACK_PLUGINS, flow.callbackDir].filter(Boolean).join(':');
    vars.ANSIBLE_CALLBACKS_ENABLED = [env.ANSIBLE_CALLBACKS_ENABLED, 'semaphore_outputs'].filter(Boolean).join(',');
  }
  return vars;
}
