import type { Db, Tx } from '../../db/database.ts';
import type { Config } from '../../config/config.ts';
import type { TemplateRow } from '../../db/schema.ts';
import { checkRepoPath } from '../shared/repo-path.ts';
import { badRequest } from '../../http/errors.ts';
import { toFlag } from '../../lib/time.ts';
import { parseDuration } from '../../lib/duration.ts';
import { requireInProject, requireOptionalInProject } from '../shared/project-refs.ts';
import { BUILT_IN_APPS, TERRAFORM_APPS, suppressFlagsOf, type SurveyVar, type TemplateInput } from './template.ts';
import { checkAlertChannelIds } from '../alert-channels/alert-channel.service.ts';
import { assertSurveyKeys, normaliseSurveyVars } from './survey-vars.validation.ts';
import { validateVaults, type VaultValues } from './vaults.validation.ts';
import { checkEnvironmentIds, templateEnvironmentIds } from '../environments/environment-list.ts';
import { checkTemplateSshKeyIds } from './template-ssh-keys.ts';
import { executorColumns } from './executor-fields.ts';
import { concurrencyColumns } from './concurrency-fields.ts';
import { checkTemplateLocks } from '../locks/template-locks.ts';
import { checkAllowedInventories } from './allowed-inventories.ts';

/** Column values of a template row, ready to insert or update. */
export type TemplateValues = Omit<TemplateRow, 'id' | 'project_id' | 'created'>;

/** Apps a template may use: the built-in ones plus configured or admin-added ones. */
export async function listKnownApps(db: Db | Tx, config: Config): Promise<Set<string>> {
  const apps = new Set<string>([...BUILT_IN_APPS, ...Object.keys(config.apps ?? {})]);
  const options = await db.selectFrom('option').select('key').where('key', 'like', 'apps.%').execute();
  for (const o of options) apps.add(o.key.split('.')[1]!);
  return apps;
}

/**
 * Checks a template body against the rules of its app and type, and every reference against
 * the project, BEFORE anything is written. Returns the normalised column values and vaults.
 * `current` is the stored row on update: fields the body leaves out keep their value.
 */
export async function validateTemplate(
  db: Db | Tx, config: Config, projectId: number, input: TemplateInput, current?: TemplateRow,
): Promise<{ values: TemplateValues; vaults: VaultValues[] | undefined; environmentIds: number[] | undefined; sshKeyIds: number[] | undefined; alertChannelIds: number[] | undefined; allowedInventories: number[] | undefined; lockIds: number[] | undefined }> {
  if (current && input.project_id !== undefined && input.project_id !== projectId) throw badRequest('Template cannot be moved to another project');
  const pick = <K extends keyof TemplateInput & keyof TemplateRow>(key: K, fallback: TemplateRow[K]) =>
    (input[key] !== undefined ? input[key] : current ? current[key] : fallback) as TemplateInput[K];

  const name = (pick('name', '') as string | undefined ?? '').trim();
  if (!name) throw badRequest('Template name is required');
  const app = (pick('app', 'ansible') as string | undefined) || 'ansible';
  if (!(await listKnownApps(db, config)).has(app)) throw badRequest(`Invalid app id: ${app}`);
  const rawType = (pick('type', '') as string | undefined) ?? '';
  const type = rawType === 'task' ? '' : rawType;
  const playbook = ((pick('playbook', '') as string | null | undefined) ?? '').trim();
  if (!playbook && !TERRAFORM_APPS.has(app)) throw badRequest('Playbook filename is required');
  if (playbook) checkRepoPath(playbook, 'playbook');

  const inventoryId = pick('inventory_id', null) as number | null | undefined ?? null;
  const repositoryId = pick('repository_id', null) as number | null | undefined ?? null;
  const environmentIds = await resolveEnvironmentIds(db, projectId, input, current);
  const environmentId = environmentIds ? environmentIds[0] ?? null : current?.environment_id ?? null;
  const viewId = pick('view_id', null) as number | null | undefined ?? null;
  if (app === 'ansible' && !inventoryId) throw badRequest('Inventory is required for ansible templates');
  if (!repositoryId) throw badRequest('Repository is required');
  await requireOptionalInProject(db, 'inventory', inventoryId, projectId, 'inventory_id');
  await requireInProject(db, 'repository', repositoryId, projectId, 'repository_id');
  await requireOptionalInProject(db, 'view', viewId, projectId, 'view_id');

  if (current?.type === 'build' && type !== 'build') {
    const deploy = await db.selectFrom('template').select('name').where('build_template_id', '=', current.id).executeTakeFirst();
    if (deploy) throw badRequest(`type: deploy template "${deploy.name}" deploys the builds of this template`);
  }
  const startVersion = type === 'build' ? ((pick('start_version', null) as string | null | undefined) ?? '').trim() : '';
  if (type === 'build' && !startVersion) throw badRequest('Start version is required for a build template');
  const buildTemplateId = type === 'deploy' ? (pick('build_template_id', null) as number | null | undefined ?? null) : null;
  if (type === 'deploy') await requireBuildTemplate(db, projectId, buildTemplateId, current?.id);

  const args = pick('arguments', null) as string | null | undefined;
  const workingDirectory = normaliseWorkingDirectory(app, pick('working_directory', null) as string | null | undefined, input.working_directory !== undefined);
  const surveyVars = (input.survey_vars !== undefined ? input.survey_vars ?? [] : current ? JSON.parse(current.survey_vars) : []) as SurveyVar[];
  const taskParams = input.task_params !== undefined ? input.task_params ?? {} : current ? JSON.parse(current.task_params) : {};
  const bool = (key: 'allow_override_args_in_task' | 'allow_override_branch_in_task' | 'allow_parallel_tasks' | 'suppress_success_alerts' | 'suppress_error_alerts' | 'autorun' | 'disabled') =>
    input[key] !== undefined ? toFlag(input[key]) : current ? current[key] : 0;

  const values: TemplateValues = {
    name,
    app,
    type,
    playbook,
    description: ((pick('description', '') as string | null | undefined) ?? ''),
    inventory_id: inventoryId,
    repository_id: repositoryId,
    environment_id: environmentId,
    view_id: viewId,
    arguments: normaliseArguments(args),
    allow_override_args_in_task: bool('allow_override_args_in_task'),
    allow_override_branch_in_task: bool('allow_override_branch_in_task'),
    allow_parallel_tasks: bool('allow_parallel_tasks'),
    suppress_success_alerts: bool('suppress_success_alerts'),
    suppress_error_alerts: bool('suppress_error_alerts'),
    autorun: bool('autorun'),
    disabled: bool('disabled'),
    start_version: startVersion || null,
    build_template_id: buildTemplateId,
    git_branch: emptyToNull(pick('git_branch', null) as string | null | undefined),
    survey_vars: JSON.stringify(await surveyVarsChecked(db, projectId, surveyVars)),
    task_params: JSON.stringify(taskParams),
    runner_tag: emptyToNull(pick('runner_tag', null) as string | null | undefined),
    working_directory: workingDirectory,
    ...(await executorColumns(db, projectId, input, current)),
    ...concurrencyColumns(input, current),
    ...jwtValues(config, input, current),
    // kept while successes stay muted (a Semaphore client sends only the suppress flags)
    alert_fixed: bool('suppress_success_alerts') ? (current?.alert_fixed ?? 0) : 0,
    // Signalbox's alert choice wins over the suppress flags Semaphore clients send
    ...(input.alert_on ? suppressFlagsOf(input.alert_on) : {}),
  };
  const vaults = input.vaults === undefined ? undefined : await validateVaults(db, projectId, input.vaults ?? []);
  const sshKeyIds = input.ssh_key_ids === undefined || input.ssh_key_ids === null ? undefined : await checkTemplateSshKeyIds(db, projectId, input.ssh_key_ids);
  const alertChannelIds = input.alert_channel_ids === undefined || input.alert_channel_ids === null ? undefined : await checkAlertChannelIds(db, projectId, input.alert_channel_ids);
  const allowedInventories = input.allowed_inventories === undefined || input.allowed_inventories === null ? undefined : await checkAllowedInventories(db, projectId, input.allowed_inventories);
  const lockIds = input.locks === undefined || input.locks === null ? undefined : await checkTemplateLocks(db, projectId, input.locks);
  if (name !== current?.name) await refuseTakenName(db, projectId, name);
  return { values, vaults, environmentIds, sshKeyIds, alertChannelIds, allowedInventories, lockIds };
}

/** The JWT section: audiences ≤ 32, a TTL that parses and stays within `jwt.max_ttl`. */
function jwtValues(config: Config, input: TemplateInput, current?: TemplateRow): Pick<TemplateValues, 'jwt_enabled' | 'jwt_audience' | 'jwt_ttl'> {
  const enabled = input.jwt_enabled !== undefined ? toFlag(input.jwt_enabled) : current?.jwt_enabled ?? 0;
  const audience = input.jwt_audience !== undefined ? JSON.stringify(input.jwt_audience ?? []) : current?.jwt_audience ?? null;
  const ttl = input.jwt_ttl !== undefined ? emptyToNull(input.jwt_ttl) : current?.jwt_ttl ?? null;
  if (ttl && input.jwt_ttl !== undefined) {
    const seconds = parseDuration(ttl);
    if (!seconds) throw badRequest('jwt_ttl: use a duration such as 30s, 10m or 1h');
    if (seconds > config.jwt.max_ttl) throw badRequest(`jwt_ttl: at most ${config.jwt.max_ttl} seconds (jwt.max_ttl)`);
  }
  return { jwt_enabled: enabled, jwt_audience: audience, jwt_ttl: ttl };
}

/**
 * The template's variable groups after this body, or undefined when it leaves them alone.
 * `environment_ids` wins; an old client's single `environment_id` replaces the first group
 * (null: no groups).
 */
async function resolveEnvironmentIds(db: Db | Tx, projectId: number, input: TemplateInput, current?: TemplateRow): Promise<number[] | undefined> {
  if (input.environment_ids !== undefined && input.environment_ids !== null) {
    return checkEnvironmentIds(db, projectId, input.environment_ids, 'environment_ids');
  }
  if (input.environment_id === undefined) return current ? undefined : [];
  if (input.environment_id === null) return [];
  const rest = current ? (await templateEnvironmentIds(db, current)).slice(1) : [];
  return checkEnvironmentIds(db, projectId, [input.environment_id, ...rest.filter((id) => id !== input.environment_id)], 'environment_id');
}

/**
 * Template names are unique per project (Semaphore 2.20; tasks may start by `template_name`).
 * Only a new or changed name is checked: duplicates from before the rule keep working.
 */
async function refuseTakenName(db: Db | Tx, projectId: number, name: string) {
  const taken = await db.selectFrom('template').select('id').where('project_id', '=', projectId).where('name', '=', name).orderBy('id').executeTakeFirst();
  if (taken) throw badRequest(`name: template ${taken.id} "${name}" already has this name in this project`);
}

function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value.trim();
}

async function requireBuildTemplate(db: Db | Tx, projectId: number, id: number | null, selfId: number | undefined) {
  if (!id) throw badRequest('Build template is required for a deploy template');
  if (id === selfId) throw badRequest('build_template_id: a template cannot deploy its own builds');
  const build = await db.selectFrom('template').select(['id', 'type']).where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!build) throw badRequest(`build_template_id: no template ${id} in this project`);
  if (build.type !== 'build') throw badRequest(`build_template_id: template ${id} is not a build template`);
}

/** `arguments` is a JSON array of strings; empty means none (null). */
function normaliseArguments(args: string | null | undefined): string | null {
  if (args === undefined || args === null || args.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw badRequest('arguments: must be valid JSON (a JSON array of strings)');
  }
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw badRequest('arguments: must be a JSON array of strings');
  return args;
}

/**
 * Ansible only; a repository-relative path that stays inside the repository. A value kept from
 * before (not sent) is dropped when the template stops being an ansible template.
 */
function normaliseWorkingDirectory(app: string, dir: string | null | undefined, sent: boolean): string | null {
  const value = emptyToNull(dir);
  if (value === null) return null;
  if (app !== 'ansible') {
    if (!sent) return null;
    throw badRequest('working_directory: only ansible templates have a working directory');
  }
  checkRepoPath(value, 'working_directory');
  return value;
}

async function surveyVarsChecked(db: Db | Tx, projectId: number, vars: SurveyVar[]): Promise<SurveyVar[]> {
  const normalised = normaliseSurveyVars(vars);
  await assertSurveyKeys(db, projectId, normalised);
  return normalised;
}
