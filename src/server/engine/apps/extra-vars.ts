import type { TaskDetails } from '../run/task-details.ts';
import { parseObject } from '../run/task-details.ts';
import { surveyVarsOf } from '../../domain/templates/stored-survey-vars.ts';

export interface RunVariables {
  /** ansible --extra-vars / terraform -var / script name=value (without secrets) */
  extraVars: Record<string, unknown>;
  /** survey secrets and `var`-type group secrets: handed over without a command line where the app allows */
  secretVars: Record<string, string>;
  /** survey values whose target is `env` */
  envVars: Record<string, string>;
  /**
   * Names in `extraVars` and `secretVars` whose values came from someone who may not edit the
   * template (a task_runner, a webhook sender): Ansible gets them marked unsafe.
   */
  untrusted: Set<string>;
}

/**
 * Merges the variables of a run (reference §5.4). Decision: the task's values (survey answers,
 * webhook values) override the variable group's — a survey answer is the more specific choice
 * (2.10 lets the group win, which surprises users). Survey secrets come from the in-memory
 * `secret` values; `semaphore_vars.task_details` describes the task. The task's values are
 * `untrusted` unless someone who may edit the template gave them (`task.trusted_values`).
 * @example const { extraVars } = mergeRunVariables(details, { token: 's3' }, 'https://sb.example');
 */
export function mergeRunVariables(details: TaskDetails, secret: Record<string, string>, webHost: string): RunVariables {
  const { task, template, variables } = details;
  const survey = surveyVarsOf(template.survey_vars);
  const envTargets = new Set(survey.filter((v) => v.target === 'env').map((v) => v.name));
  const extraVars: Record<string, unknown> = { ...variables.json };
  const envVars: Record<string, string> = {};
  const untrusted = new Set<string>();
  const given = (name: string) => { if (!task.trusted_values) untrusted.add(name); };
  for (const [name, value] of Object.entries(parseObject(task.environment))) {
    if (envTargets.has(name)) envVars[name] = typeof value === 'string' ? value : JSON.stringify(value);
    else {
      extraVars[name] = value;
      given(name);
    }
  }
  const secretVars: Record<string, string> = { ...variables.varSecrets };
  for (const [name, value] of Object.entries(secret)) {
    if (envTargets.has(name)) envVars[name] = value;
    else {
      secretVars[name] = value;
      given(name);
    }
  }
  extraVars.semaphore_vars = { task_details: taskDetailsVars(details, webHost) };
  return { extraVars, secretVars, envVars, untrusted };
}

/** `semaphore_vars.task_details` (reference §5.4, with the newer commit/inventory/repository keys). */
export function taskDetailsVars(details: TaskDetails, webHost: string): Record<string, unknown> {
  const { task, template } = details;
  const vars: Record<string, unknown> = {
    id: task.id,
    username: details.username,
    url: webHost ? `${webHost}/project/${task.project_id}/history?t=${task.id}` : null,
    commit_hash: task.commit_hash ?? '',
    commit_message: task.commit_message ?? '',
    inventory_name: details.inventory?.name ?? '',
    inventory_id: details.inventory?.id ?? null,
    repository_name: details.repository?.name ?? '',
    repository_id: details.repository?.id ?? null,
  };
  if (task.message) vars.message = task.message;
  if (template.type === 'build' || template.type === 'deploy') {
    vars.type = template.type;
    if (details.incomingVersion) vars.incoming_version = details.incomingVersion;
    if (template.type === 'build' && task.version) vars.target_version = task.version;
  }
  return vars;
}

/** A variable as a command-line value: strings as they are, everything else as JSON. */
export function formatVarValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
