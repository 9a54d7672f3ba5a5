import { z } from 'zod';
import { smallCount } from '../shared/project-refs.ts';

/**
 * Semaphore's project backup (reference §9.1; spec `ProjectBackup`). References between
 * sections are by name. Objects are loose: backups from newer Semaphore versions carry fields
 * we do not know, which restore ignores. Signalbox adds `schedules` (every schedule, so a
 * round trip keeps them all) and template `workspaces`/inventory `holder`; Semaphore ignores them.
 */
const name = z.string().trim().min(1, 'required').max(255, 'at most 255 characters');
const ref = z.string().nullable().optional();
const bool = z.boolean().nullable().optional();
const text = z.string().nullable().optional();
const params = z.record(z.string(), z.unknown()).nullable().optional();

export const backupKeySchema = z.looseObject({ name, type: z.enum(['none', 'ssh', 'login_password']) });

export const backupRepositorySchema = z.looseObject({ name, git_url: z.string(), git_branch: text, ssh_key: ref });

export const backupInventorySchema = z.looseObject({
  name, inventory: text, type: z.enum(['static', 'static-yaml', 'file', 'terraform-workspace', 'tofu-workspace']),
  ssh_key: ref, become_key: ref, repository: ref, holder: ref,
});

export const backupEnvironmentSchema = z.looseObject({ name, password: text, json: text, env: text });

export const backupViewSchema = z.looseObject({
  title: name, position: smallCount.nullable().optional(), hidden: bool,
  type: z.enum(['', 'all']).nullable().optional(), sort_column: text, sort_reverse: bool,
});

export const backupVaultSchema = z.looseObject({ name: text, type: z.enum(['password', 'script']).nullable().optional(), vault_key: ref, script: text });

export const backupTemplateSchema = z.looseObject({
  name, app: text, type: z.enum(['', 'task', 'build', 'deploy']).nullable().optional(), playbook: text, description: text,
  inventory: ref, repository: ref, environment: ref, view: ref, build_template: ref,
  arguments: text, allow_override_args_in_task: bool, allow_override_branch_in_task: bool, allow_parallel_tasks: bool,
  suppress_success_alerts: bool, suppress_error_alerts: bool, autorun: bool, start_version: text, git_branch: text,
  working_directory: text, runner_tag: text, executor_image: text, task_params: params,
  survey_vars: z.union([z.array(z.looseObject({})), z.string()]).nullable().optional(),
  vaults: z.array(backupVaultSchema).nullable().optional(), vault_key: ref, cron: text,
  workspaces: z.array(z.string()).nullable().optional(),
  /** every variable group in order (`environment` is the first, for older readers) */
  environments: z.array(z.string()).nullable().optional(),
});

export const backupScheduleSchema = z.looseObject({
  template: name, name: text, cron_format: text, type: z.enum(['', 'run_at']).nullable().optional(), run_at: text,
  active: bool, repository: ref, task_params: params,
});

const backupMatcherSchema = z.looseObject({ name, match_type: z.string(), method: z.string(), body_data_type: text, key: text, value: text });
const backupExtractValueSchema = z.looseObject({ name, value_source: z.string(), body_data_type: text, key: text, variable: text, variable_type: text });

export const backupIntegrationSchema = z.looseObject({
  name, template: name, auth_method: text, auth_secret: ref, auth_header: text, searchable: bool, task_params: params,
  aliases: z.array(z.string()).nullable().optional(),
  matchers: z.array(backupMatcherSchema).nullable().optional(),
  extract_values: z.array(backupExtractValueSchema).nullable().optional(),
});

export const backupSchema = z.looseObject({
  meta: z.looseObject({
    name: z.string().nullable().optional(), alert: bool, alert_chat: text,
    max_parallel_tasks: smallCount.nullable().optional(), type: text,
  }),
  keys: z.array(backupKeySchema).nullable().optional(),
  repositories: z.array(backupRepositorySchema).nullable().optional(),
  inventories: z.array(backupInventorySchema).nullable().optional(),
  environments: z.array(backupEnvironmentSchema).nullable().optional(),
  views: z.array(backupViewSchema).nullable().optional(),
  templates: z.array(backupTemplateSchema).nullable().optional(),
  schedules: z.array(backupScheduleSchema).nullable().optional(),
  integrations: z.array(backupIntegrationSchema).nullable().optional(),
  integration_aliases: z.array(z.string()).nullable().optional(),
});

export type Backup = z.infer<typeof backupSchema>;
export type BackupTemplate = z.infer<typeof backupTemplateSchema>;
