// The task launch dialog's model (seed 001 §5 task form), shared by the server's form loop
// (launch-form.ts) and the browser island (islands/LaunchFields.tsx): no server imports here.

/** Field name → message, as the form loop's FieldErrors. */
export type FieldErrors = Record<string, string>;

/** The hidden `_form` value of the task launch dialog. */
export const LAUNCH_FORM = 'launch';
export const DEBUG_LEVELS = [1, 2, 3, 4, 5, 6] as const;
export const DEFAULT_DEBUG_LEVEL = 4;
/** Successful builds offered to a deploy (seed 001 §9). */
export const BUILD_VERSIONS_LIMIT = 20;
const TERRAFORM_APPS = ['terraform', 'tofu', 'terragrunt'];

export interface LaunchSurveyVar {
  name?: string; title?: string; description?: string | null; type?: string; required?: boolean;
  default_value?: string | null; values?: { name?: string | null; value?: string | null }[] | null;
  /** an enum whose choices the server reads from this URL (GET …/templates/{tid}/survey_options) */
  values_url?: string | null;
}

/** What GET …/templates/{tid}/survey_options answers for one variable. */
export type SurveyOptionsAnswer = { values: { name: string; value: string }[] } | { error: string };

/**
 * The survey variables with the choices their URL gave, and a field message for each whose
 * source failed (its reason in `failed`, which words the message).
 */
export function withUrlOptions(vars: LaunchSurveyVar[], answers: Record<string, SurveyOptionsAnswer>, failed: (reason: string) => string): { vars: LaunchSurveyVar[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const merged = vars.map((v) => {
    const answer = v.name && v.values_url && Object.hasOwn(answers, v.name) ? answers[v.name] : undefined;
    if (!answer) return v;
    if ('error' in answer) {
      errors[varField(v.name!)] = failed(answer.error);
      return { ...v, values: [] };
    }
    return { ...v, values: answer.values };
  });
  return { vars: merged, errors };
}

/** The template fields the launch dialog reads (GET .../templates/{tid}). */
export interface LaunchTemplate {
  id: number; name: string; app: string; type: string; build_template_id: number | null;
  allow_override_args_in_task: boolean; allow_override_branch_in_task: boolean;
  arguments: string | null; git_branch: string | null; repository_id: number | null; inventory_id: number | null;
  environment_ids?: number[];
  /** the inventories a start may choose; empty or missing: any */
  allowed_inventories?: number[];
  survey_vars: LaunchSurveyVar[]; task_params: Record<string, unknown>;
}

/** What the dialog shows and the user typed: strings and booleans, as in the form. */
export interface LaunchValues {
  message: string;
  /** survey answers by variable name */
  vars: Record<string, string>;
  build_task_id: string; git_branch: string; inventory_id: string; arguments: string;
  /** the chosen variable groups in order, comma-separated ids */
  environment_ids: string;
  limit: string; tags: string; skip_tags: string;
  debug: boolean; debug_level: string; dry_run: boolean; diff: boolean; skip_galaxy_install: boolean;
  plan: boolean; destroy: boolean; auto_approve: boolean; upgrade: boolean; reconfigure: boolean;
}

/** Which parts of the form a template offers. */
export interface LaunchOptions {
  build: boolean; branch: boolean; inventory: boolean; args: boolean; environments: boolean;
  limit: boolean; tags: boolean; skipTags: boolean;
  debug: boolean; ansible: boolean; terraform: boolean; autoApprove: boolean;
}

/**
 * The inventories the dialog offers: those the template allows, else all of the project's (its
 * own inventory is the select's empty choice).
 * @example offeredInventories({ ...template, allowed_inventories: [3] }, all) // only #3
 */
export function offeredInventories<T extends { id: number }>(template: Pick<LaunchTemplate, 'allowed_inventories'>, inventories: T[]): T[] {
  const allowed = template.allowed_inventories ?? [];
  return allowed.length ? inventories.filter((i) => allowed.includes(i.id)) : inventories;
}

export function launchOptions(template: LaunchTemplate): LaunchOptions {
  const p = template.task_params ?? {};
  const terraform = TERRAFORM_APPS.includes(template.app);
  const ansible = template.app === 'ansible' || template.app === '';
  return {
    build: template.type === 'deploy',
    branch: template.allow_override_branch_in_task,
    inventory: Boolean(p.allow_override_inventory),
    args: template.allow_override_args_in_task,
    environments: Boolean(p.allow_override_environment),
    limit: !terraform && Boolean(p.allow_override_limit),
    tags: !terraform && Boolean(p.allow_override_tags),
    skipTags: !terraform && Boolean(p.allow_override_skip_tags),
    debug: ansible && p.allow_debug !== false,
    ansible,
    terraform,
    autoApprove: terraform && Boolean(p.allow_auto_approve),
  };
}

/** The survey variables with a name (the only ones that can be answered). */
export function surveyVars(template: LaunchTemplate): (LaunchSurveyVar & { name: string })[] {
  return (template.survey_vars ?? []).filter((v): v is LaunchSurveyVar & { name: string } => Boolean(v.name));
}

/** The form field of a survey variable. */
export const varField = (name: string) => `var_${name}`;

/** The values before anything was typed: survey defaults, the template's branch, debug level 4. */
export function initialLaunchValues(template: LaunchTemplate): LaunchValues {
  const vars: Record<string, string> = {};
  for (const v of surveyVars(template)) vars[v.name] = v.type === 'secret' ? '' : v.default_value ?? '';
  let args = '';
  try {
    const parsed: unknown = JSON.parse(template.arguments || '[]');
    if (Array.isArray(parsed)) args = parsed.map(String).join('\n');
  } catch { /* the template's own arguments are not shown then */ }
  const list = (key: string) => {
    const value = template.task_params?.[key];
    return Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '';
  };
  return {
    message: '', vars, build_task_id: '', git_branch: template.git_branch ?? '', inventory_id: '', arguments: args,
    environment_ids: (template.environment_ids ?? []).join(','),
    limit: list('limit'), tags: list('tags'), skip_tags: list('skip_tags'),
    debug: false, debug_level: String(DEFAULT_DEBUG_LEVEL), dry_run: false, diff: false,
    skip_galaxy_install: template.task_params?.skip_galaxy_install === true,
    plan: false, destroy: false, auto_approve: Boolean(template.task_params?.auto_approve), upgrade: false, reconfigure: false,
  };
}

/** The launch dialog's ticked hosts and groups of the template's inventory, added to the limit. */
export const LIMIT_PICK = 'limit_pick';

const csv = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);
const positiveId = (text: string) => (/^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : undefined);

/** The chosen variable groups of the form's comma-separated ids, in order, each once. */
export function groupIds(text: string): number[] {
  return [...new Set(text.split(',').map(positiveId).filter((id): id is number => id !== undefined))];
}

/** The POST /api/project/{id}/tasks body of the values: only what the template lets this run choose. */
export function launchBody(template: LaunchTemplate, values: LaunchValues): Record<string, unknown> {
  const o = launchOptions(template);
  const environment: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const v of surveyVars(template)) {
    const answer = answerOf(values, v.name);
    if (answer === '') continue;
    if (v.type === 'secret') secret[v.name] = answer;
    else environment[v.name] = answer;
  }
  const params: Record<string, unknown> = {};
  if (o.terraform) {
    Object.assign(params, { plan: values.plan, destroy: values.destroy, upgrade: values.upgrade, reconfigure: values.reconfigure });
    if (o.autoApprove) params.auto_approve = values.auto_approve;
  } else {
    if (o.ansible) Object.assign(params, { dry_run: values.dry_run, diff: values.diff, skip_galaxy_install: values.skip_galaxy_install });
    if (o.debug && values.debug) Object.assign(params, { debug: true, debug_level: Number(values.debug_level) || DEFAULT_DEBUG_LEVEL });
    if (o.limit) params.limit = csv(values.limit);
    if (o.tags) params.tags = csv(values.tags);
    if (o.skipTags) params.skip_tags = csv(values.skip_tags);
  }
  const body: Record<string, unknown> = { template_id: template.id, params };
  if (values.message) body.message = values.message;
  if (Object.keys(environment).length) body.environment = JSON.stringify(environment);
  if (Object.keys(secret).length) body.secret = JSON.stringify(secret);
  if (o.build) body.build_task_id = positiveId(values.build_task_id);
  if (o.branch && values.git_branch) body.git_branch = values.git_branch;
  if (o.inventory) body.inventory_id = positiveId(values.inventory_id);
  if (o.environments) body.environment_ids = groupIds(values.environment_ids);
  if (o.args) {
    const args = values.arguments.split('\n').map((s) => s.trim()).filter(Boolean);
    if (args.length) body.arguments = JSON.stringify(args);
  }
  return body;
}

export type LaunchMessage = (key: 'required' | 'mustBeInteger' | 'buildVersionRequired' | 'debugLevelRange', vars?: Record<string, string>) => string;

/**
 * Seed 001 §5 task form rules, in its wording, for the server loop and the island alike:
 * required survey answers ("{title} is required"), int answers digits only ("{title} must be
 * integer"), a build version for a deploy, debug level 1–6. Keys are form field names.
 */
export function checkLaunch(template: LaunchTemplate, values: LaunchValues, message: LaunchMessage): FieldErrors {
  const errors: FieldErrors = {};
  for (const v of surveyVars(template)) {
    const answer = answerOf(values, v.name);
    const title = v.title || v.name;
    if (v.required && answer === '') errors[varField(v.name)] = message('required', { title });
    else if (v.type === 'int' && answer !== '' && !/^\d+$/.test(answer)) errors[varField(v.name)] = message('mustBeInteger', { title });
  }
  const o = launchOptions(template);
  if (o.build && positiveId(values.build_task_id) === undefined) errors.build_task_id = message('buildVersionRequired');
  if (o.debug && values.debug && !DEBUG_LEVELS.includes(Number(values.debug_level) as 1)) errors.debug_level = message('debugLevelRange');
  return errors;
}

/** The `?new_task=` template id of a URL, or 0. */
export function launchTemplateId(url: URL): number {
  const raw = url.searchParams.get('new_task') ?? '';
  return /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
}

/** The project id of a console path under /project/{id}/…, or 0. */
export function projectIdOfPath(pathname: string): number {
  const match = /^\/project\/(\d{1,10})(\/|$)/.exec(pathname);
  return match ? Number(match[1]) : 0;
}

/** The answer typed for a survey variable; a name like `constructor` is never read off the prototype. */
function answerOf(values: LaunchValues, name: string): string {
  return Object.hasOwn(values.vars, name) ? values.vars[name] ?? '' : '';
}
