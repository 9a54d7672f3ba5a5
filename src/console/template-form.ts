import type { AstroGlobal } from 'astro';
import { templateInputSchema } from '../server/domain/templates/template.ts';
import { apiAsk, apiGet, apiGetOr, apiSend, readErrorText, RunnerApiError } from './runner-api.ts';
import { checkboxField, runForm, textField, type FieldErrors, type FormOutcome } from './form-loop.ts';
import {
  argError, parseArguments, surveyVarErrors, surveyVarsFromApi, surveyVarsToApi, vaultErrors, vaultsFromApi, vaultsToApi,
} from './template-rules.ts';
import { grantsError, grantValuesOf, loadGrantChoices, readGrantValues, saveGrants, type GrantChoices } from './template-grants-form.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response'>;

/** Apps the dialog knows; the 1200 px ones carry inventories/vaults (seed 001 §2). */

/** The template's alert choices, in the order the form lists them. */
export const ALERT_CHOICES = ['always', 'failure', 'fixed', 'success', 'never'];
export const TEMPLATE_APPS = ['ansible', 'terraform', 'tofu', 'bash', 'python', 'powershell', 'pulumi'] as const;
/** App names as their makers write them (not translated). */
export const APP_TITLES: Record<string, string> = {
  ansible: 'Ansible', terraform: 'Terraform', tofu: 'OpenTofu', bash: 'Bash', python: 'Python', powershell: 'PowerShell', pulumi: 'Pulumi',
};
export const WIDE_APPS = new Set(['ansible', 'terraform', 'tofu']);
export const TERRAFORM_LIKE = new Set(['terraform', 'tofu']);

/** "Check for new commits" intervals (seed 001 §9) → cron. */
export const COMMIT_CHECK_INTERVALS = [
  { key: 'every_1m', cron: '* * * * *' },
  { key: 'every_5m', cron: '*/5 * * * *' },
  { key: 'every_10m', cron: '*/10 * * * *' },
  { key: 'every_1h', cron: '0 * * * *' },
  { key: 'every_24h', cron: '0 0 * * *' },
] as const;

export type TemplateType = 'task' | 'build' | 'deploy';

/** The dialog's fields as typed (strings and checkboxes); names are the form's field names. */
export interface TemplateFormValues {
  app: string;
  type: TemplateType;
  name: string;
  description: string;
  playbook: string;
  inventory_id: string;
  repository_id: string;
  environment_id: string;
  /** the groups after the first, in order, comma-separated ids (one select each in the dialog) */
  more_environment_ids: string;
  allow_override_environment: boolean;
  /** the template's extra SSH keys, comma-separated ids (one checkbox per SSH key in the dialog) */
  ssh_key_ids: string;
  /** the inventories a task may choose, comma-separated ids (none: any) */
  allowed_inventories: string;
  view_id: string;
  git_branch: string;
  survey_vars: string;
  vaults: string;
  arguments: string;
  limit: string;
  tags: string;
  skip_tags: string;
  allow_override_limit: boolean;
  allow_override_tags: boolean;
  allow_override_skip_tags: boolean;
  allow_debug: boolean;
  skip_galaxy_install: boolean;
  allow_override_inventory: boolean;
  auto_approve: boolean;
  allow_auto_approve: boolean;
  start_version: string;
  build_template_id: string;
  autorun: boolean;
  cron_enabled: boolean;
  cron_repository_id: string;
  cron_format: string;
  allow_override_args_in_task: boolean;
  allow_override_branch_in_task: boolean;
  /** failure | success | always | never (Signalbox's view of the two suppress flags) */
  alert_on: string;
  /** the chosen alert channels, comma-separated ids; empty = all */
  alert_channel_ids: string;
  disabled: boolean;
  runner_tag: string;
  /** the container the tasks run in (issue 47): image, network, limits, user, pull policy, registry key id */
  executor_image: string;
  executor_network: string;
  executor_cpus: string;
  executor_memory: string;
  executor_user: string;
  executor_pull: string;
  executor_registry_key_id: string;
  /** concurrency (issue 48): the limit ('' = the template's default), the policy, the lock names (comma-separated), the triggers' rate limit */
  concurrency_limit: string;
  concurrency_policy: string;
  locks: string;
  rate_limit_starts: string;
  rate_limit_window: string;
  /** the JWT section was on the page (the server issues task tokens): only then are its fields sent */
  jwt_shown: boolean;
  jwt_enabled: boolean;
  /** audiences, one a line */
  jwt_audience: string;
  jwt_ttl: string;
  /** "Who can run this": the grants section was on the page (the caller may set grants); only then are they written */
  grants_shown: boolean;
  /** the chosen grants, `role:<slug>=see|run,user:<id>=…` (template-grants-form.ts) */
  grants: string;
}

/** The template as GET answers it (the fields the dialog edits). */
export interface ApiTemplate {
  id: number; name: string; description: string | null; app: string; type: string; playbook: string;
  inventory_id: number | null; repository_id: number | null; environment_id: number | null; environment_ids?: number[]; ssh_key_ids?: number[]; allowed_inventories?: number[]; view_id: number | null;
  git_branch: string | null; survey_vars: unknown[]; vaults: unknown[]; arguments: string | null;
  task_params: Record<string, unknown>; start_version: string | null; build_template_id: number | null; autorun: boolean;
  allow_override_args_in_task: boolean; allow_override_branch_in_task: boolean; alert_on?: string; alert_channel_ids?: number[];
  runner_tag: string | null; disabled?: boolean;
  executor_image?: string | null; executor_network?: string; executor_cpus?: number | null; executor_memory?: string | null;
  executor_user?: string | null; executor_pull?: string | null; executor_registry_key_id?: number | null;
  concurrency_limit?: number | null; concurrency_policy?: string; locks?: string[]; rate_limit_starts?: number | null; rate_limit_window?: string | null;
  jwt_enabled?: boolean; jwt_audience?: string[]; jwt_ttl?: string;
}
interface Named { id: number; name: string }
export interface ApiSchedule { id: number; name: string; cron_format: string | null; repository_id: number | null; type?: string }

/** What the dialog lists in its selects. */
export interface TemplateChoices {
  inventories: (Named & { type: string })[];
  /** every inventory of the app's kind in the project, to tick the ones a task may choose */
  projectInventories: (Named & { type: string })[];
  repositories: (Named & { git_url: string })[];
  environments: Named[];
  views: { id: number; title: string }[];
  keys: (Named & { type: string })[];
  buildTemplates: Named[];
  runnerTags: string[];
  branches: string[];
  /** the project's alert channels a template may choose */
  alertChannels: (Named & { kind: string })[];
  /** task identity tokens as the server allows them (seconds), from /api/info */
  jwt: { enabled: boolean; default_ttl: number; max_ttl: number };
  /** the project's default container image ('' = none), what a template without its own uses */
  projectImage: string;
  /** the project's named locks a template may need */
  locks: { name: string; capacity: number }[];
  /** the roles and members "Who can run this" offers; null when the caller may not set grants */
  grantees: GrantChoices | null;
}

export interface TemplateFormPage {
  form: FormOutcome<TemplateFormValues>;
  choices: TemplateChoices;
  /** seed 001 §5 messages of the editors, for the islands */
  isNew: boolean;
}

const idText = (id: number | null | undefined) => (id ? String(id) : '');
const param = (params: Record<string, unknown>, key: string) => (typeof params[key] === 'string' ? params[key] as string : '');

function initialValues(app: string, template: ApiTemplate | null, commitCheck: ApiSchedule | null, grants: string | null): TemplateFormValues {
  const p = template?.task_params ?? {};
  const type = template?.type === 'build' || template?.type === 'deploy' ? template.type : 'task';
  return {
    app: template?.app ?? app,
    type,
    name: template?.name ?? '',
    description: template?.description ?? '',
    playbook: template?.playbook ?? '',
    inventory_id: idText(template?.inventory_id),
    repository_id: idText(template?.repository_id),
    environment_id: idText(template?.environment_id),
    more_environment_ids: (template?.environment_ids ?? []).slice(1).join(','),
    allow_override_environment: p.allow_override_environment === true,
    ssh_key_ids: (template?.ssh_key_ids ?? []).join(','),
    allowed_inventories: (template?.allowed_inventories ?? []).join(','),
    view_id: idText(template?.view_id),
    git_branch: template?.git_branch ?? '',
    survey_vars: JSON.stringify(surveyVarsToApi(surveyVarsFromApi(template?.survey_vars ?? [])), null, 2),
    vaults: JSON.stringify(vaultsToApi(vaultsFromApi(template?.vaults ?? [])), null, 2),
    arguments: template?.arguments ?? '',
    limit: param(p, 'limit'),
    tags: param(p, 'tags'),
    skip_tags: param(p, 'skip_tags'),
    allow_override_limit: p.allow_override_limit === true,
    allow_override_tags: p.allow_override_tags === true,
    allow_override_skip_tags: p.allow_override_skip_tags === true,
    allow_debug: p.allow_debug === true,
    skip_galaxy_install: p.skip_galaxy_install === true,
    allow_override_inventory: p.allow_override_inventory === true,
    auto_approve: p.auto_approve === true,
    allow_auto_approve: p.allow_auto_approve === true,
    start_version: template?.start_version ?? '',
    build_template_id: idText(template?.build_template_id),
    autorun: template?.autorun ?? false,
    cron_enabled: commitCheck !== null,
    cron_repository_id: idText(commitCheck?.repository_id),
    cron_format: commitCheck?.cron_format ?? COMMIT_CHECK_INTERVALS[0].cron,
    allow_override_args_in_task: template?.allow_override_args_in_task ?? false,
    allow_override_branch_in_task: template?.allow_override_branch_in_task ?? false,
    alert_on: template?.alert_on ?? 'always',
    alert_channel_ids: (template?.alert_channel_ids ?? []).join(','),
    disabled: template?.disabled ?? false,
    runner_tag: template?.runner_tag ?? '',
    executor_image: template?.executor_image ?? '',
    executor_network: template?.executor_network ?? 'bridge',
    executor_cpus: template?.executor_cpus ? String(template.executor_cpus) : '',
    executor_memory: template?.executor_memory ?? '',
    executor_user: template?.executor_user ?? '',
    executor_pull: template?.executor_pull ?? '',
    executor_registry_key_id: idText(template?.executor_registry_key_id),
    concurrency_limit: template?.concurrency_limit ? String(template.concurrency_limit) : '',
    concurrency_policy: template?.concurrency_policy ?? 'queue',
    locks: (template?.locks ?? []).join(','),
    rate_limit_starts: template?.rate_limit_starts ? String(template.rate_limit_starts) : '',
    rate_limit_window: template?.rate_limit_window ?? '',
    jwt_shown: false,
    jwt_enabled: template?.jwt_enabled ?? false,
    jwt_audience: (template?.jwt_audience ?? []).join('\n'),
    jwt_ttl: template?.jwt_ttl ?? '',
    grants_shown: grants !== null,
    grants: grants ?? '',
  };
}

function readValues(form: FormData, app: string): TemplateFormValues {
  const raw = (name: string) => { const v = form.get(name); return typeof v === 'string' ? v : ''; };
  const type = textField(form, 'type');
  return {
    app,
    type: type === 'build' || type === 'deploy' ? type : 'task',
    name: textField(form, 'name'),
    description: raw('description'),
    playbook: textField(form, 'playbook'),
    inventory_id: textField(form, 'inventory_id'),
    repository_id: textField(form, 'repository_id'),
    environment_id: textField(form, 'environment_id'),
    more_environment_ids: form.getAll('more_environment_ids').filter((id): id is string => typeof id === 'string' && id !== '').join(','),
    allow_override_environment: checkboxField(form, 'allow_override_environment'),
    ssh_key_ids: idList(form, 'ssh_key_ids'),
    allowed_inventories: idList(form, 'allowed_inventories'),
    view_id: textField(form, 'view_id'),
    git_branch: textField(form, 'git_branch'),
    survey_vars: raw('survey_vars'),
    vaults: raw('vaults'),
    arguments: raw('arguments'),
    limit: textField(form, 'limit'),
    tags: textField(form, 'tags'),
    skip_tags: textField(form, 'skip_tags'),
    allow_override_limit: checkboxField(form, 'allow_override_limit'),
    allow_override_tags: checkboxField(form, 'allow_override_tags'),
    allow_override_skip_tags: checkboxField(form, 'allow_override_skip_tags'),
    allow_debug: checkboxField(form, 'allow_debug'),
    skip_galaxy_install: checkboxField(form, 'skip_galaxy_install'),
    allow_override_inventory: checkboxField(form, 'allow_override_inventory'),
    auto_approve: checkboxField(form, 'auto_approve'),
    allow_auto_approve: checkboxField(form, 'allow_auto_approve'),
    start_version: textField(form, 'start_version'),
    build_template_id: textField(form, 'build_template_id'),
    autorun: checkboxField(form, 'autorun'),
    cron_enabled: checkboxField(form, 'cron_enabled'),
    cron_repository_id: textField(form, 'cron_repository_id'),
    cron_format: textField(form, 'cron_format'),
    allow_override_args_in_task: checkboxField(form, 'allow_override_args_in_task'),
    allow_override_branch_in_task: checkboxField(form, 'allow_override_branch_in_task'),
    alert_on: ALERT_CHOICES.includes(textField(form, 'alert_on')) ? textField(form, 'alert_on') : 'always',
    alert_channel_ids: idList(form, 'alert_channel_ids'),
    disabled: checkboxField(form, 'disabled'),
    runner_tag: textField(form, 'runner_tag'),
    executor_image: textField(form, 'executor_image'),
    executor_network: textField(form, 'executor_network') || 'bridge',
    executor_cpus: textField(form, 'executor_cpus'),
    executor_memory: textField(form, 'executor_memory'),
    executor_user: textField(form, 'executor_user'),
    executor_pull: textField(form, 'executor_pull'),
    executor_registry_key_id: textField(form, 'executor_registry_key_id'),
    concurrency_limit: textField(form, 'concurrency_limit'),
    concurrency_policy: textField(form, 'concurrency_policy') || 'queue',
    locks: form.getAll('locks').filter((name): name is string => typeof name === 'string' && name !== '').join(','),
    rate_limit_starts: textField(form, 'rate_limit_starts'),
    rate_limit_window: textField(form, 'rate_limit_window'),
    jwt_shown: form.get('jwt_section') === '1',
    jwt_enabled: checkboxField(form, 'jwt_enabled'),
    jwt_audience: raw('jwt_audience'),
    jwt_ttl: textField(form, 'jwt_ttl'),
    grants_shown: form.get('grants_section') === '1',
    grants: readGrantValues(form),
  };
}

/** A typed whole number as a number; anything else as typed, for the schema to refuse in its words. */
function wholeOrText(text: string): number | string {
  return /^\d{1,9}$/.test(text) ? Number(text) : text;
}

/** The audience lines: trimmed, empty lines dropped. */
function audiencesOf(text: string): string[] {
  return text.split(/\r?\n/).map((a) => a.trim()).filter(Boolean);
}

/** JSON text of a textarea/hidden input; `undefined` (which the schema refuses) when it is not JSON. */
function jsonArray(text: string): unknown {
  if (!text.trim()) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : 'not-an-array';
  } catch {
    return 'not-json';
  }
}

const num = (text: string) => (/^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null);

/** Every chosen variable group in order: the first, then the further ones. */
function environmentIdsOf(v: TemplateFormValues): number[] {
  return [v.environment_id, ...v.more_environment_ids.split(',')].map(num).filter((id): id is number => id !== null);
}

function toBody(v: TemplateFormValues) {
  const ansible = v.app === 'ansible';
  const terraform = TERRAFORM_LIKE.has(v.app);
  const surveyVars = jsonArray(v.survey_vars);
  const vaults = ansible ? jsonArray(v.vaults) : [];
  const args = parseArguments(v.arguments);
  const taskParams: Record<string, unknown> = {};
  if (ansible) {
    Object.assign(taskParams, {
      limit: v.limit, tags: v.tags, skip_tags: v.skip_tags,
      allow_override_limit: v.allow_override_limit, allow_override_tags: v.allow_override_tags, allow_override_skip_tags: v.allow_override_skip_tags,
      allow_debug: v.allow_debug, allow_override_inventory: v.allow_override_inventory, skip_galaxy_install: v.skip_galaxy_install,
    });
  }
  if (terraform) Object.assign(taskParams, { auto_approve: v.auto_approve, allow_auto_approve: v.allow_auto_approve, allow_override_inventory: v.allow_override_inventory });
  taskParams.allow_override_environment = v.allow_override_environment;
  return {
    app: v.app,
    type: v.type === 'task' ? '' : v.type,
    name: v.name,
    description: v.description,
    playbook: v.playbook,
    inventory_id: ansible || terraform ? num(v.inventory_id) : null,
    repository_id: num(v.repository_id),
    environment_id: num(v.environment_id),
    environment_ids: environmentIdsOf(v),
    ssh_key_ids: v.ssh_key_ids.split(',').map(num).filter((id): id is number => id !== null),
    allowed_inventories: ansible || terraform ? v.allowed_inventories.split(',').map(num).filter((id): id is number => id !== null) : [],
    view_id: num(v.view_id),
    git_branch: v.git_branch || null,
    survey_vars: Array.isArray(surveyVars) ? surveyVarsToApi(surveyVarsFromApi(surveyVars)) : surveyVars,
    vaults: Array.isArray(vaults) ? vaultsToApi(vaultsFromApi(vaults)) : vaults,
    arguments: args === null ? 'not-json' : args.length ? JSON.stringify(args.map((a) => a.trim())) : null,
    task_params: taskParams,
    start_version: v.type === 'build' ? v.start_version : null,
    build_template_id: v.type === 'deploy' ? num(v.build_template_id) : null,
    autorun: v.type === 'deploy' && v.autorun,
    allow_override_args_in_task: v.allow_override_args_in_task,
    allow_override_branch_in_task: v.allow_override_branch_in_task,
    alert_on: v.alert_on,
    alert_channel_ids: v.alert_channel_ids.split(',').map(num).filter((id): id is number => id !== null),
    disabled: v.disabled,
    runner_tag: v.runner_tag || null,
    executor_image: v.executor_image || null,
    executor_network: v.executor_network,
    // typed text the schema refuses with its own message (a number of CPUs such as 1.5)
    executor_cpus: v.executor_cpus === '' ? null : /^\d+(\.\d+)?$/.test(v.executor_cpus) ? Number(v.executor_cpus) : v.executor_cpus,
    executor_memory: v.executor_memory || null,
    executor_user: v.executor_user || null,
    executor_pull: v.executor_pull || null,
    executor_registry_key_id: num(v.executor_registry_key_id),
    // typed text the schema refuses with its own message (a whole number)
    concurrency_limit: v.concurrency_limit === '' ? null : wholeOrText(v.concurrency_limit),
    concurrency_policy: v.concurrency_policy,
    locks: v.locks ? v.locks.split(',') : [],
    rate_limit_starts: v.rate_limit_starts === '' ? null : wholeOrText(v.rate_limit_starts),
    rate_limit_window: v.rate_limit_window || null,
    ...(v.jwt_shown ? { jwt_enabled: v.jwt_enabled, jwt_audience: audiencesOf(v.jwt_audience), jwt_ttl: v.jwt_ttl } : {}),
  };
}

/** The seed's rules the schema cannot state; messages are `templateForm.*` keys, translated by `t`. */
function ruleErrors(v: TemplateFormValues, t: (key: string) => string): FieldErrors {
  const errors: FieldErrors = {};
  const say = (key: string) => t(`templateForm.${key}`);
  if (!v.name) errors.name = say('name_required');
  if (!v.playbook && !TERRAFORM_LIKE.has(v.app)) errors.playbook = say(v.app === 'ansible' ? 'playbook_filename_required' : 'script_filename_required');
  if (v.app === 'ansible' && !num(v.inventory_id)) errors.inventory_id = say('inventory_required');
  if (!num(v.repository_id)) errors.repository_id = say('repository_required');
  if (!num(v.environment_id)) errors.environment_id = say('environment_required');
  const groups = environmentIdsOf(v);
  if (new Set(groups).size !== groups.length) errors.more_environment_ids = say('environment_duplicate');
  if (v.type === 'build' && !v.start_version) errors.start_version = say('start_version_required');
  if (v.type === 'deploy' && !num(v.build_template_id)) errors.build_template_id = say('build_template_required');
  if (v.cron_enabled && !num(v.cron_repository_id)) errors.cron_repository_id = say('repository_required');

  const surveyVars = jsonArray(v.survey_vars);
  if (!Array.isArray(surveyVars)) errors.survey_vars = say('json_invalid');
  else {
    for (const draft of surveyVarsFromApi(surveyVars)) {
      const first = Object.values(surveyVarErrors(draft))[0];
      if (first) { errors.survey_vars = `${draft.title || draft.name || '?'}: ${say(first)}`; break; }
    }
  }
  if (v.app === 'ansible') {
    const vaults = jsonArray(v.vaults);
    if (!Array.isArray(vaults)) errors.vaults = say('json_invalid');
    else {
      const drafts = vaultsFromApi(vaults);
      for (let i = 0; i < drafts.length; i++) {
        const first = Object.values(vaultErrors(drafts, i))[0];
        if (first) { errors.vaults = `${drafts[i]!.name.trim() || 'default'}: ${say(first)}`; break; }
      }
    }
  }
  const args = parseArguments(v.arguments);
  if (args === null) errors.arguments = say('json_invalid');
  else if (args.some((a) => argError(a))) errors.arguments = say('arg_required');
  const grants = v.grants_shown ? grantsError(v.grants) : '';
  if (grants) errors.grants = grants;
  return errors;
}

async function loadChoices(astro: AstroLike, projectId: number, app: string, templateId: number | null, repositoryId: string, grantees: GrantChoices | null): Promise<TemplateChoices> {
  const base = `/api/project/${projectId}`;
  const ofApp = `${base}/inventory?app=${encodeURIComponent(app)}`;
  const [inventories, projectInventories, repositories, environments, views, keys, templates, tags, info, alertChannels, project, locks] = await Promise.all([
    apiGet<TemplateChoices['inventories']>(astro, templateId ? `${ofApp}&template_id=${templateId}` : ofApp),
    templateId ? apiGet<TemplateChoices['inventories']>(astro, ofApp) : null,
    apiGet<TemplateChoices['repositories']>(astro, `${base}/repositories`),
    apiGet<Named[]>(astro, `${base}/environment`),
    apiGetOr<{ id: number; title: string }[]>(astro, `${base}/views`, []),
    apiGetOr<TemplateChoices['keys']>(astro, `${base}/keys`, []),
    apiGet<(Named & { type: string })[]>(astro, `${base}/templates`),
    apiGetOr<{ tag: string }[]>(astro, `${base}/runner_tags`, []),
    apiGetOr<{ jwt?: TemplateChoices['jwt'] }>(astro, '/api/info', {}),
    apiGetOr<TemplateChoices['alertChannels']>(astro, `${base}/alert-channels`, []),
    apiGetOr<{ executor_image?: string | null }>(astro, base, {}),
    apiGetOr<TemplateChoices['locks']>(astro, `${base}/locks`, []),
  ]);
  return {
    inventories, projectInventories: projectInventories ?? inventories, repositories, environments, views, keys, alertChannels,
    buildTemplates: templates.filter((tpl) => tpl.type === 'build' && tpl.id !== templateId),
    runnerTags: tags.map((tag) => tag.tag),
    jwt: info.jwt ?? { enabled: false, default_ttl: 0, max_ttl: 0 },
    projectImage: project.executor_image ?? '',
    locks: locks.map((lock) => ({ name: lock.name, capacity: lock.capacity })),
    grantees,
    branches: await loadBranches(astro, projectId, num(repositoryId)),
  };
}

/** Remote branches of the chosen repository (issue 18 item 4); none for local ones or on failure. */
async function loadBranches(astro: AstroLike, projectId: number, repositoryId: number | null): Promise<string[]> {
  if (!repositoryId) return [];
  try {
    return await apiGet<string[]>(astro, `/api/project/${projectId}/repositories/${repositoryId}/branches`);
  } catch (err) {
    if (err instanceof RunnerApiError) return [];
    throw err;
  }
}

/**
 * The template dialog's form loop (new: `template` null and `app` from `?app=`; edit: the stored
 * template): the shared runForm with the API's templateInputSchema, the cron of "check for new
 * commits" asked of POST /schedules/validate before saving, and the commit-check schedule
 * created, updated or removed after, as Semaphore's own dialog does. When `canGrant`, "Who can
 * run this" is on the form and its grants are written after the template (PUT …/grants).
 * @example const page = await runTemplateForm(Astro, project.id, template, app, mayGrant(user, ctx.role)); if (page.form.redirect) return page.form.redirect;
 */
export async function runTemplateForm(astro: AstroLike, projectId: number, template: ApiTemplate | null, app: string, canGrant: boolean): Promise<TemplateFormPage> {
  const { t } = astro.locals;
  const base = `/api/project/${projectId}`;
  const schedules = template ? await apiGetOr<ApiSchedule[]>(astro, `${base}/templates/${template.id}/schedules`, []) : [];
  const commitChecks = schedules.filter((s) => s.repository_id);
  const granting = canGrant ? await loadGrantChoices(astro, projectId, template?.id ?? null) : null;
  const storedGrants = granting ? grantValuesOf(granting.grants) : null;
  let saved: TemplateFormValues | null = null;
  const form = await runForm(astro, {
    name: 'template',
    initial: initialValues(app, template, commitChecks[0] ?? null, storedGrants),
    read: (posted) => readValues(posted, template?.app ?? app),
    toBody,
    schema: templateInputSchema,
    messages: {
      survey_vars: t('templateForm.json_invalid'), vaults: t('templateForm.json_invalid'), arguments: t('templateForm.json_invalid'),
    },
    check: async (_body, values) => {
      saved = values;
      const errors = ruleErrors(values, t);
      if (values.cron_enabled && !errors.cron_repository_id) {
        const res = await apiAsk(astro, `${base}/schedules/validate`, { cron_format: values.cron_format });
        if (!res.ok) errors.cron_format = await readErrorText(res);
      }
      return errors;
    },
    call: () => (template ? { method: 'PUT', path: `${base}/templates/${template.id}` } : { method: 'POST', path: `${base}/templates` }),
    done: async (res, body) => {
      const id = template ? template.id : ((await res.json()) as { id: number }).id;
      await syncCommitCheck(astro, base, id, body.name ?? '', saved!, commitChecks);
      const refused = granting && saved!.grants_shown ? await saveGrants(astro, projectId, id, saved!.grants, storedGrants ?? '') : '';
      // the template is saved; grants the API refused are said on its dialog, to be chosen again
      if (refused) return { path: `/project/${projectId}/templates/${id}/edit`, flash: 'template_grants_failed', name: refused };
      return { path: `/project/${projectId}/templates/${id}/tasks`, flash: template ? 'template_saved' : 'template_created', name: body.name };
    },
  });
  const choices = await loadChoices(astro, projectId, form.values.app, template?.id ?? null, form.values.repository_id, granting?.choices ?? null);
  return { form, choices, isNew: !template };
}

/**
 * Semaphore's afterSave: one commit-check schedule per template. Created when the option is on
 * and none exists, updated when it exists, deleted when the option is turned off; a template with
 * several is left alone.
 */
async function syncCommitCheck(astro: AstroLike, base: string, templateId: number, name: string, v: TemplateFormValues, existing: ApiSchedule[]) {
  if (existing.length > 1) return;
  const current = existing[0];
  const body = {
    template_id: templateId, name: current?.name ?? astro.locals.t('templateForm.commit_schedule_name', { name }),
    cron_format: v.cron_format, repository_id: num(v.cron_repository_id), active: true,
  };
  if (!current && v.cron_enabled) await apiSend(astro, 'POST', `${base}/schedules`, body);
  else if (current && !v.cron_enabled) await apiSend(astro, 'DELETE', `${base}/schedules/${current.id}`);
  else if (current && v.cron_enabled) await apiSend(astro, 'PUT', `${base}/schedules/${current.id}`, { ...body, id: current.id });
}

/** The ticked ids of a checkbox list, comma-separated; anything but digits is dropped. */
function idList(form: FormData, name: string): string {
  return form.getAll(name).filter((id): id is string => typeof id === 'string' && /^\d+$/.test(id)).join(',');
}
