import { z } from 'zod';
import { leaveOutUnset } from '../../lib/unset-fields.ts';
import { templateAudiences } from '../../identity/task-token.ts';
import type { Selectable } from 'kysely';
import type { TemplateRow, TemplateVaultTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';
import { parseJsonColumn, refId } from '../shared/project-refs.ts';
import type { TaskWithTpl } from '../tasks/task.ts';
import { lockNameField } from '../locks/lock.ts';
import { MAX_TEMPLATE_LOCKS } from '../locks/template-locks.ts';
import { concurrencyFieldsOf, concurrencyTemplateFields, type ConcurrencyPolicy } from './concurrency-fields.ts';
import { executorFieldsOf, executorImageField, executorTemplateFields, type ExecutorNetwork, type PullPolicy } from './executor-fields.ts';

/** Apps a template may run (reference §3.7); the configured `apps` add more. */
export const BUILT_IN_APPS = ['ansible', 'terraform', 'tofu', 'terragrunt', 'bash', 'python', 'powershell', 'pulumi'] as const;

/** Apps whose "playbook" is optional: Terraform-style apps run the repository directory. */
export const TERRAFORM_APPS = new Set(['terraform', 'tofu', 'terragrunt']);

const optionalRef = refId.nullable().optional();

/**
 * Which task outcomes alert: a view of Semaphore's two suppress flags (always = neither
 * suppressed), and `fixed`: failures and the first success after a failure.
 */
export const ALERT_ON = ['failure', 'fixed', 'success', 'always', 'never'] as const;
export type AlertOn = (typeof ALERT_ON)[number];

type AlertFlags = { suppress_success_alerts: number; suppress_error_alerts: number; alert_fixed: number };

/** The alert choice the suppress flags and `alert_fixed` make. */
export function alertOnOf(row: AlertFlags): AlertOn {
  if (row.suppress_success_alerts) return row.suppress_error_alerts ? 'never' : row.alert_fixed ? 'fixed' : 'failure';
  return row.suppress_error_alerts ? 'success' : 'always';
}

/** The flags an alert choice stands for. */
export function suppressFlagsOf(alertOn: AlertOn): AlertFlags {
  return {
    suppress_success_alerts: alertOn === 'failure' || alertOn === 'fixed' || alertOn === 'never' ? 1 : 0,
    suppress_error_alerts: alertOn === 'success' || alertOn === 'never' ? 1 : 0,
    alert_fixed: alertOn === 'fixed' ? 1 : 0,
  };
}
const flag = z.boolean().optional();

export const surveyVarSchema = z.looseObject({
  name: z.string().optional(),
  title: z.string().optional(),
  description: z.string().nullable().optional(),
  type: z.enum(['', 'string', 'int', 'enum', 'secret', 'text']).optional(),
  target: z.enum(['', 'env']).optional(),
  required: z.boolean().optional(),
  default_value: z.string().nullable().optional(),
  /** its answer is used for the run and never stored: kept out of the task row, masked in the log */
  do_not_store: z.boolean().optional(),
  values: z.array(z.looseObject({ name: z.string().nullable().optional(), value: z.string().nullable().optional() })).nullable().optional(),
  /** an enum's choices read from this URL when a task is launched, instead of `values` */
  values_url: z.string().max(2048).nullable().optional(),
  /** the project key sent to `values_url` for auth */
  values_url_key_id: z.number().int().positive().nullable().optional(),
});
export type SurveyVar = z.infer<typeof surveyVarSchema>;

export const vaultSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  template_id: z.number().int().optional(),
  // any integer, as Semaphore: a script vault ignores it, a password vault's must be a key of the project
  vault_key_id: z.number().int().nullable().optional(),
  name: z.string().nullable().optional(),
  type: z.enum(['password', 'script', '']).nullable().optional(),
  script: z.string().nullable().optional(),
});
export type VaultInput = z.infer<typeof vaultSchema>;

/**
 * Body of POST/PUT `/templates`. Every field Semaphore's own Template carries is accepted
 * (read-only ones are ignored), so posting back an object read from GET creates a copy.
 */
export const templateInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  inventory_id: optionalRef,
  repository_id: optionalRef,
  environment_id: optionalRef,
  environment_ids: z.array(refId).nullable().optional()
    .meta({ description: 'Variable groups in order: later ones override earlier ones key by key; environment_id is the first' }),
  ssh_key_ids: z.array(refId).nullable().optional()
    .meta({ description: "Extra SSH keys (the project's, type ssh) offered to every SSH connection of the template's tasks after their own keys: git clones with submodules, Ansible" }),
  view_id: optionalRef,
  vaults: z.array(vaultSchema).nullable().optional(),
  name: z.string().max(255, 'at most 255 characters').optional(),
  playbook: fields.text(4096).optional(),
  working_directory: fields.text(4096).nullable().optional(),
  arguments: z.string().nullable().optional(),
  description: fields.text().nullable().optional(),
  allow_override_args_in_task: flag,
  allow_override_branch_in_task: flag,
  allow_parallel_tasks: flag,
  limit: z.string().optional(),
  suppress_success_alerts: flag,
  suppress_error_alerts: flag,
  alert_on: z.enum(ALERT_ON, { error: 'must be failure, fixed, success, always or never' }).optional()
    .meta({ description: 'Signalbox: which outcomes alert (always = both; fixed = failures and the first success after one); sets suppress_success_alerts and suppress_error_alerts, and wins over them' }),
  allowed_inventories: z.array(refId).nullable().optional()
    .meta({ description: "Signalbox: the project's inventories a start may choose besides the template's own; empty = any" }),
  alert_channel_ids: z.array(refId).max(100, 'at most 100 channels').nullable().optional()
    .meta({ description: "Signalbox: which of the project's alert channels get this template's alerts; empty = all" }),
  app: z.string().max(64).optional(),
  git_branch: z.string().max(255).nullable().optional(),
  survey_vars: z.array(surveyVarSchema).nullable().optional(),
  type: z.enum(['', 'task', 'build', 'deploy']).optional(),
  start_version: z.string().max(255).nullable().optional(),
  build_template_id: optionalRef,
  autorun: flag,
  disabled: flag.meta({ description: 'Signalbox: a disabled template cannot be run by anyone; schedules and webhooks skip it' }),
  task_params: z.record(z.string(), z.unknown()).nullable().optional(),
  runner_tag: z.string().max(255).nullable().optional(),
  executor_image: executorImageField
    .meta({ description: "Container image the template's tasks run in (empty: the project's, else the server's SEMAPHORE_EXECUTOR_IMAGE, else on the host)" }),
  ...executorTemplateFields,
  ...concurrencyTemplateFields,
  locks: z.array(lockNameField).max(MAX_TEMPLATE_LOCKS, `at most ${MAX_TEMPLATE_LOCKS} locks`).nullable().optional()
    .meta({ description: "Signalbox: names of the project's locks a task of the template must hold, all at once, to start" }),
  jwt_enabled: z.boolean().optional(),
  jwt_audience: z.array(z.string().trim().min(1, 'must not be empty').max(1024, 'at most 1024 characters')).max(32, 'at most 32 audiences').nullable().optional(),
  jwt_ttl: z.string().trim().max(32).nullable().optional(),
  params: z.record(z.string(), z.unknown()).nullable().optional(),
  last_task: z.unknown().optional(),
  last_task_id: z.number().int().nullable().optional(),
  tasks: z.number().int().optional(),
  created: z.string().optional(),
});
export type TemplateInput = z.infer<typeof templateInputSchema>;

export type VaultRow = Selectable<TemplateVaultTable>;

export interface TemplateVault {
  id: number;
  project_id: number;
  template_id: number;
  vault_key_id?: number;
  name?: string;
  type: string;
  script?: string;
}

/** A template as the API shows it (reference §3.7 plus the 2.16 additions). */
export interface Template {
  id: number;
  project_id: number;
  inventory_id: number | null;
  repository_id: number | null;
  environment_id: number | null;
  environment_ids: number[];
  ssh_key_ids: number[];
  view_id: number | null;
  name: string;
  playbook: string;
  working_directory: string | null;
  arguments: string | null;
  description: string;
  allow_override_args_in_task: boolean;
  allow_override_branch_in_task: boolean;
  allow_parallel_tasks: boolean;
  suppress_success_alerts: boolean;
  suppress_error_alerts: boolean;
  alert_on: AlertOn;
  alert_channel_ids: number[];
  allowed_inventories: number[];
  app: string;
  git_branch: string | null;
  type: string;
  start_version?: string;
  build_template_id?: number;
  autorun: boolean;
  disabled: boolean;
  survey_vars: SurveyVar[];
  vaults: TemplateVault[];
  task_params: Record<string, unknown>;
  runner_tag: string | null;
  executor_image?: string;
  executor_network: ExecutorNetwork;
  executor_cpus?: number;
  executor_memory?: string;
  executor_user?: string;
  executor_pull?: PullPolicy;
  executor_registry_key_id?: number;
  concurrency_limit: number | null;
  concurrency_policy: ConcurrencyPolicy;
  rate_limit_starts: number | null;
  rate_limit_window: string | null;
  locks: string[];
  jwt_enabled: boolean;
  jwt_audience: string[];
  jwt_ttl: string;
  last_task: TaskWithTpl | null;
  last_task_id: number | null;
  tasks: number;
}

export function vaultRowToVault(row: VaultRow): TemplateVault {
  return leaveOutUnset({
    id: row.id, project_id: row.project_id, template_id: row.template_id, vault_key_id: row.vault_key_id,
    name: row.name, type: row.type, script: row.script,
  }, ['vault_key_id', 'name', 'script']);
}

/** Builds the API object from a row, its vaults, its latest task and its task count. */
export function templateRowToTemplate(row: TemplateRow, extra: { environmentIds: number[]; sshKeyIds: number[]; alertChannelIds?: number[]; allowedInventories?: number[]; locks?: string[]; vaults: VaultRow[]; lastTask: TaskWithTpl | null; taskCount: number }): Template {
  return {
    id: row.id,
    project_id: row.project_id,
    inventory_id: row.inventory_id,
    repository_id: row.repository_id,
    environment_id: row.environment_id,
    environment_ids: extra.environmentIds,
    ssh_key_ids: extra.sshKeyIds,
    view_id: row.view_id,
    name: row.name,
    playbook: row.playbook,
    working_directory: row.working_directory,
    arguments: row.arguments,
    description: row.description,
    allow_override_args_in_task: Boolean(row.allow_override_args_in_task),
    allow_override_branch_in_task: Boolean(row.allow_override_branch_in_task),
    allow_parallel_tasks: Boolean(row.allow_parallel_tasks),
    suppress_success_alerts: Boolean(row.suppress_success_alerts),
    suppress_error_alerts: Boolean(row.suppress_error_alerts),
    alert_on: alertOnOf(row),
    alert_channel_ids: extra.alertChannelIds ?? [],
    allowed_inventories: extra.allowedInventories ?? [],
    app: row.app,
    git_branch: row.git_branch,
    type: row.type,
    // left out when unset, as Semaphore's own answer does
    ...(row.start_version === null ? {} : { start_version: row.start_version }),
    ...(row.build_template_id === null ? {} : { build_template_id: row.build_template_id }),
    autorun: Boolean(row.autorun),
    disabled: Boolean(row.disabled),
    survey_vars: parseJsonColumn<SurveyVar[]>(row.survey_vars, []),
    vaults: extra.vaults.map(vaultRowToVault),
    task_params: parseJsonColumn<Record<string, unknown>>(row.task_params, {}),
    runner_tag: row.runner_tag,
    ...(row.executor_image === null ? {} : { executor_image: row.executor_image }),
    ...executorFieldsOf(row),
    ...concurrencyFieldsOf(row),
    locks: extra.locks ?? [],
    jwt_enabled: Boolean(row.jwt_enabled),
    jwt_audience: templateAudiences(row),
    jwt_ttl: row.jwt_ttl ?? '',
    last_task: extra.lastTask,
    last_task_id: extra.lastTask?.id ?? null,
    tasks: extra.taskCount,
  };
}
