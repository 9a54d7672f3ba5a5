import { writeAudit } from '../audit/audit.writer.ts';
import type { Deps } from '../../deps.ts';
import type { ProjectRow, TaskRow, TemplateRow, UserRow } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { enqueueTask, type NewTaskInput } from './enqueue-task.ts';
import { isFinished, setTaskStatus } from './task-status.ts';
import { parseJsonObject as readJsonColumn } from '../../lib/json-object.ts';
import { surveyVarsOf } from '../templates/stored-survey-vars.ts';
import type { TaskInput } from './task.ts';
import { checkCommitHash, checkGitBranch } from './git-refs.ts';
import { ownValue } from '../../lib/own-value.ts';
import { checkEnvironmentIds } from '../environments/environment-list.ts';

const TERRAFORM_APPS = ['terraform', 'tofu'];

/**
 * Validates a run request against its template and queues it: survey answers (required, int,
 * enum), overrides only where the template allows them (arguments, branch, inventory, limit/
 * tags/skip-tags, auto_approve), survey secrets kept in memory only. A caller who may not
 * manage the project's resources (and so may not edit the template) passes only the template's
 * survey variables and no command-line arguments: free extra vars (`ansible_python_interpreter`,
 * `ansible_ssh_common_args` …) and arguments (`-e`, `--ssh-common-args`) run commands on the
 * server. Such a caller's values are marked untrusted: the engine keeps Jinja in them from running.
 * @example const task = await createTask(deps, project, user, { template_id: 3, message: 'hi' }, { mayEditTemplate: true });
 */
export async function createTask(deps: Deps, project: ProjectRow, user: UserRow, input: TaskInput, caller: TaskCaller): Promise<TaskRow> {
  const template = await findTemplate(deps, project.id, input);
  const templateParams = readJsonColumn(template.task_params);
  const environment = parseJsonObject(input.environment, 'environment');
  const secretValues = parseJsonObject(input.secret, 'secret');
  const secret: Record<string, string> = {};
  for (const [k, v] of Object.entries(secretValues)) secret[k] = typeof v === 'string' ? v : JSON.stringify(v);
  if (!caller.mayEditTemplate) refuseUndeclaredVariables(template, { environment, secret });
  validateSurvey(template, environment, secret);

  let args: string | null = null;
  if (template.allow_override_args_in_task && input.arguments) {
    let list: unknown;
    try {
      list = JSON.parse(input.arguments);
      if (!Array.isArray(list)) throw new Error();
    } catch {
      throw badRequest('arguments: must be a JSON array of strings');
    }
    if (list.length && !caller.mayEditTemplate) throw badRequest('arguments: only someone who may manage the project\'s resources may pass arguments');
    args = input.arguments;
  }
  const gitBranch = template.allow_override_branch_in_task && input.git_branch?.trim() ? checkGitBranch(input.git_branch) : null;
  const commitHash = input.commit_hash?.trim() ? checkCommitHash(input.commit_hash) : null;

  let inventoryId: number | null = null;
  if (input.inventory_id && templateParams.allow_override_inventory) {
    const inventory = await deps.db.selectFrom('inventory').select('id').where('id', '=', input.inventory_id).where('project_id', '=', project.id).executeTakeFirst();
    if (!inventory) throw badRequest('inventory_id: no such inventory in this project');
    inventoryId = inventory.id;
  }
  const environmentIds = await chosenEnvironmentIds(deps, project.id, templateParams, input);
  let buildTaskId: number | null = null;
  if (input.build_task_id) {
    const build = await deps.db.selectFrom('task').select('id').where('id', '=', input.build_task_id).where('project_id', '=', project.id).executeTakeFirst();
    if (!build) throw badRequest('build_task_id: no such task in this project');
    buildTaskId = build.id;
  }

  return enqueueTask(deps, {
    projectId: project.id, templateId: template.id, userId: user.id,
    message: input.message ?? '', environment, secret, trustedValues: caller.trustedValues ?? caller.mayEditTemplate, onInsert: caller.onInsert,
    params: allowedParams(template, templateParams, input, caller),
    arguments: args, gitBranch, commitHash, inventoryId, buildTaskId, environmentIds,
  });
}

/** Who starts a task: whether they may edit the template; a workflow run adds its claim (`onInsert`) and marks values from outputs untrusted. */
export interface TaskCaller {
  mayEditTemplate: boolean;
  trustedValues?: boolean;
  onInsert?: NewTaskInput['onInsert'];
}

/**
 * The variable groups chosen at launch (`environment_ids`), when the template lets a run choose
 * them (`task_params.allow_override_environment`); undefined means the template's own.
 */
async function chosenEnvironmentIds(deps: Deps, projectId: number, templateParams: Record<string, unknown>, input: TaskInput): Promise<number[] | undefined> {
  if (input.environment_ids === undefined || input.environment_ids === null) return undefined;
  if (!templateParams.allow_override_environment) throw badRequest('environment_ids: this template does not let a task choose its variable groups');
  return checkEnvironmentIds(deps.db, projectId, input.environment_ids, 'environment_ids');
}

/**
 * The template by `template_id`, else by `template_name` (Semaphore 2.20). Names made before
 * they had to be unique may be shared: then the name is ambiguous and the caller must use the id.
 */
async function findTemplate(deps: Deps, projectId: number, input: TaskInput): Promise<TemplateRow> {
  const query = deps.db.selectFrom('template').selectAll().where('project_id', '=', projectId);
  if (input.template_id) {
    const template = await query.where('id', '=', input.template_id).executeTakeFirst();
    if (!template) throw badRequest('template_id: no such template in this project');
    return template;
  }
  if (!input.template_name) throw badRequest('template_id: required');
  const named = await query.where('name', '=', input.template_name).orderBy('id').execute();
  if (!named[0]) throw badRequest(`template_name: no template "${input.template_name}" in this project`);
  if (named[1]) throw badRequest(`template_name: several templates are named "${input.template_name}" (IDs ${named.map((t) => t.id).join(', ')}); use template_id`);
  return named[0];
}

function parseJsonObject(value: TaskInput['environment'], field: string): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  if (typeof value === 'object') return value;
  try {
    const parsed = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch { /* reported below */ }
  throw badRequest(`${field}: must be a JSON object`);
}

/** Survey rules of seed 001 §5: required answers present, int answers digits only, enum answers one of the values. */
function validateSurvey(template: TemplateRow, environment: Record<string, unknown>, secret: Record<string, string>): void {
  for (const v of surveyVarsOf(template.survey_vars)) {
    const name = v.name ?? '';
    const raw = v.type === 'secret' ? ownValue(secret, name) ?? ownValue(environment, name) : ownValue(environment, name);
    const text = raw === undefined || raw === null ? '' : String(raw);
    const label = v.title || v.name;
    if (v.required && text === '') throw badRequest(`${label} is required`);
    if (v.type === 'int' && text !== '' && !/^\d+$/.test(text)) throw badRequest(`${label} must be an integer`);
    const allowed = v.type === 'enum' ? (v.values ?? []).map((option) => option?.value ?? '') : null;
    if (allowed && text !== '' && !allowed.includes(text)) throw badRequest(`${label} must be one of: ${allowed.join(', ')}`);
  }
}

/** 400 for any `environment` or `secret` key that is not one of the template's survey variables. */
function refuseUndeclaredVariables(template: TemplateRow, given: Record<'environment' | 'secret', Record<string, unknown>>): void {
  const declared = new Set(surveyVarsOf(template.survey_vars).map((v) => v.name));
  for (const [field, values] of Object.entries(given)) {
    const stray = Object.keys(values).find((key) => !declared.has(key));
    if (stray !== undefined) throw badRequest(`${field}: "${stray}" is not a survey variable of this template`);
  }
}

/**
 * The task params the template lets this run choose; flat 2.10 flags fold into them. Ansible
 * reads a `--limit` pattern starting with `@` as a file of host names and prints the ones it
 * cannot match: only those who may edit the template may point it at a file.
 */
function allowedParams(template: TemplateRow, templateParams: Record<string, unknown>, input: TaskInput, caller: { mayEditTemplate: boolean }): Record<string, unknown> {
  const given: Record<string, unknown> = { ...(input.params ?? {}) };
  for (const flag of ['debug', 'dry_run', 'diff', 'debug_level'] as const) if (input[flag] !== undefined) given[flag] = input[flag];
  if (input.limit) given.limit = input.limit;
  const params: Record<string, unknown> = {};
  if (TERRAFORM_APPS.includes(template.app)) {
    for (const key of ['plan', 'destroy', 'upgrade', 'reconfigure']) if (given[key] !== undefined) params[key] = Boolean(given[key]);
    if (given.auto_approve && templateParams.allow_auto_approve) params.auto_approve = true;
    return params;
  }
  for (const key of ['dry_run', 'diff', 'skip_galaxy_install']) if (given[key] !== undefined) params[key] = Boolean(given[key]);
  if (given.debug !== undefined && templateParams.allow_debug !== false) {
    params.debug = Boolean(given.debug);
    if (given.debug_level !== undefined) params.debug_level = Math.min(6, Math.max(1, Number(given.debug_level) || 4));
  }
  const lists = [['limit', 'allow_override_limit'], ['tags', 'allow_override_tags'], ['skip_tags', 'allow_override_skip_tags']] as const;
  for (const [key, allow] of lists) {
    if (given[key] === undefined || !templateParams[allow]) continue;
    const value = given[key];
    params[key] = (Array.isArray(value) ? value.map(String) : String(value).split(',')).map((s) => s.trim()).filter(Boolean);
  }
  const limit = (params.limit ?? []) as string[];
  if (!caller.mayEditTemplate && limit.some((pattern) => pattern.startsWith('@'))) {
    throw badRequest('limit: a host pattern must not start with "@" (ansible reads it as a file on the server)');
  }
  return params;
}

/**
 * Stops a task: a waiting one ends `stopped` at once; a running one goes to `stopping` (the
 * engine sends SIGTERM, SIGKILL after the grace period) or, with force, straight to `stopped`
 * (SIGKILL at once). A finished task is a 400.
 * @example await stopTask(deps, task, false);
 */
export async function stopTask(deps: Deps, task: TaskRow, force: boolean): Promise<void> {
  if (isFinished(task.status)) throw badRequest('Task is already finished');
  const to = force || task.status === 'waiting' ? 'stopped' : 'stopping';
  if (task.status === to) return;
  if (await setTaskStatus(deps, task.id, to)) return;
  // The status moved under us (claimed, or finished): try once more from the fresh row.
  const fresh = await deps.db.selectFrom('task').selectAll().where('id', '=', task.id).executeTakeFirst();
  if (fresh && !isFinished(fresh.status) && fresh.status !== task.status) await stopTask(deps, fresh, force);
}

/**
 * Confirms (apply) or rejects a plan; only a task in `waiting_confirmation` takes either.
 * @example await decideTask(deps, task, 'confirmed');
 */
export async function decideTask(deps: Deps, task: TaskRow, decision: 'confirmed' | 'rejected'): Promise<void> {
  if (task.status !== 'waiting_confirmation' || !(await setTaskStatus(deps, task.id, decision))) {
    throw badRequest('Task is not waiting for confirmation');
  }
}

/** Deletes a finished task and its output (admins only, checked by the route). */
export async function deleteTask(deps: Deps, task: TaskRow): Promise<void> {
  if (!isFinished(task.status)) throw badRequest('Task is queued or running; stop it first');
  await deps.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('task_output').where('task_id', '=', task.id).execute();
    await tx.deleteFrom('task').where('id', '=', task.id).execute();
    await writeAudit(tx, { objectType: 'task', objectId: task.id, projectId: task.project_id, description: `Task ${task.id} deleted` });
  });
}
