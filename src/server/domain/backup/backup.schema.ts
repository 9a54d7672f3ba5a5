import { z } from 'zod';
import { backupGrantSchema, backupRoleSchema } from './backup-roles.ts';
import { smallCount } from '../shared/project-refs.ts';
import { INVENTORY_TYPES } from '../inventories/inventory.ts';
import { backupHostConfigSchema } from './backup-host-configs.ts';
import { backupSecretStorageSchema } from './backup-secret-storages.ts';
import { backupWorkflowSchema } from './backup-workflows.ts';
import { backupAlertChannelSchema, backupEventWebhookSchema } from './backup-alerts.ts';

/**
 * Semaphore's project backup (reference §9.1; spec `ProjectBackup`). References between
 * sections are by name. Objects are loose: backups from newer Semaphore versions carry fields
 * we do not know, which restore ignores. Signalbox adds `schedules` (every schedule, so a
 * round trip keeps them all), template `workspaces`/inventory `holder`, and the sections of its
 * own resources (host configs, secret storages, workflows, alert channels, event webhooks);
 * Semaphore ignores them.
 */
const name = z.string().trim().min(1, 'required').max(255, 'at most 255 characters');
const ref = z.string().nullable().optional();
const bool = z.boolean().nullable().optional();
const text = z.string().nullable().optional();
const params = z.record(z.string(), z.unknown()).nullable().optional();

/**
 * Most items a backup holds per section, so one restore stays a bounded piece of work
 * (README, "Backup and restore"). Far above real projects; a larger backup is refused whole.
 */
export const BACKUP_SECTION_LIMITS = {
  keys: 1000, repositories: 1000, inventories: 1000, environments: 1000, views: 100,
  templates: 1000, schedules: 1000, integrations: 200, integration_aliases: 100, host_configs: 1000, secret_storages: 100, workflows: 200,
  alert_channels: 100, event_webhooks: 100, roles: 100,
} as const;

/** Most items of the lists inside one template or integration. */
export const BACKUP_ITEM_LIMITS = { survey_vars: 50, vaults: 10, workspaces: 50, environments: 20, ssh_keys: 5, allowed_inventories: 200, grants: 200, matchers: 20, extract_values: 20, aliases: 10, alert_channels: 100 } as const;

/** A list of at most `max` items (nullable and optional, as every backup list). */
const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max, `at most ${max} items`).nullable().optional();

/** `source_storage` (a storage's name) and `source_storage_key` (`path#field`): the key's value is read from that storage */
/** `source_storage_type` `env` / `file`: the key reads the server variable or file `source_storage_key` names */
export const backupKeySchema = z.looseObject({ name, type: z.enum(['none', 'ssh', 'login_password']), source_storage: ref, source_storage_key: text, source_storage_type: text });

export const backupRepositorySchema = z.looseObject({ name, git_url: z.string(), git_branch: text, ssh_key: ref, pull_submodules: bool });

export const backupInventorySchema = z.looseObject({
  name, inventory: text, type: z.enum(INVENTORY_TYPES),
  ssh_key: ref, become_key: ref, repository: ref, holder: ref,
  /** Signalbox: a url or script inventory's key for reading its source (a key's name), and its sync schedule */
  source_key: ref, sync_cron: text,
});

export const backupEnvironmentSchema = z.looseObject({ name, password: text, json: text, env: text });

export const backupViewSchema = z.looseObject({
  title: name, position: smallCount.nullable().optional(), hidden: bool,
  type: z.enum(['', 'all']).nullable().optional(), sort_column: text, sort_reverse: bool,
  /** Signalbox: the roles that may see (`run`: start) the view's templates, by slug; members' own grants stay behind with the members */
  grants: list(backupGrantSchema, BACKUP_ITEM_LIMITS.grants),
});

export const backupVaultSchema = z.looseObject({ name: text, type: z.enum(['password', 'script']).nullable().optional(), vault_key: ref, script: text });

export const backupTemplateSchema = z.looseObject({
  name, app: text, type: z.enum(['', 'task', 'build', 'deploy']).nullable().optional(), playbook: text, description: text,
  inventory: ref, repository: ref, environment: ref, view: ref, build_template: ref,
  arguments: text, allow_override_args_in_task: bool, allow_override_branch_in_task: bool, allow_parallel_tasks: bool,
  suppress_success_alerts: bool, suppress_error_alerts: bool, alert_fixed: bool, autorun: bool, disabled: bool, start_version: text, git_branch: text,
  working_directory: text, runner_tag: text, executor_image: text, task_params: params,
  /** Signalbox: the task container's settings; the registry key by name */
  executor_network: text, executor_cpus: z.number().nullable().optional(), executor_memory: text, executor_user: text, executor_pull: text, executor_registry_key: ref,
  jwt_enabled: bool, jwt_audience: list(z.string().max(1024), 32), jwt_ttl: text,
  /** Signalbox: at most this many tasks at once, and what a start past it does */
  concurrency_limit: z.number().int().nullable().optional(), concurrency_policy: text,
  rate_limit_starts: z.number().int().nullable().optional(), rate_limit_window: text,
  survey_vars: z.union([z.array(z.looseObject({})).max(BACKUP_ITEM_LIMITS.survey_vars, `at most ${BACKUP_ITEM_LIMITS.survey_vars} items`), z.string()]).nullable().optional(),
  vaults: list(backupVaultSchema, BACKUP_ITEM_LIMITS.vaults), vault_key: ref, cron: text,
  workspaces: list(z.string(), BACKUP_ITEM_LIMITS.workspaces),
  /** every variable group in order (`environment` is the first, for older readers) */
  environments: list(z.string(), BACKUP_ITEM_LIMITS.environments),
  /** the template's extra SSH keys in order, by key name */
  ssh_keys: list(z.string(), BACKUP_ITEM_LIMITS.ssh_keys),
  /** Signalbox: the inventories a start may choose, by name (none: any) */
  allowed_inventories: list(z.string(), BACKUP_ITEM_LIMITS.allowed_inventories),
  /** the alert channels the template chose, by name (none: all of the project's) */
  alert_channels: list(z.string(), BACKUP_ITEM_LIMITS.alert_channels),
  /** Signalbox: the roles that may see (`run`: start) the template, by slug; members' own grants stay behind with the members */
  grants: list(backupGrantSchema, BACKUP_ITEM_LIMITS.grants),
});

export const backupScheduleSchema = z.looseObject({
  template: name, name: text, cron_format: text, type: z.enum(['', 'run_at']).nullable().optional(), run_at: text,
  active: bool, repository: ref, task_params: params, timezone: z.string().max(64).nullable().optional(),
});

const backupMatcherSchema = z.looseObject({ name, match_type: z.string(), method: z.string(), body_data_type: text, key: text, value: text });
const backupExtractValueSchema = z.looseObject({ name, value_source: z.string(), body_data_type: text, key: text, variable: text, variable_type: text });

export const backupIntegrationSchema = z.looseObject({
  name, template: name, auth_method: text, auth_secret: ref, auth_header: text, searchable: bool, task_params: params,
  aliases: list(z.string(), BACKUP_ITEM_LIMITS.aliases),
  matchers: list(backupMatcherSchema, BACKUP_ITEM_LIMITS.matchers),
  extract_values: list(backupExtractValueSchema, BACKUP_ITEM_LIMITS.extract_values),
});

const backupMetaSchema = z.looseObject({
  name: z.string().nullable().optional(), alert: bool, alert_chat: text,
  max_parallel_tasks: smallCount.nullable().optional(), type: text,
  /** Signalbox: the project's default container image */
  executor_image: text,
});

/** The schema of each section's items. */
export const BACKUP_SECTION_ITEMS = {
  keys: backupKeySchema, repositories: backupRepositorySchema, inventories: backupInventorySchema,
  environments: backupEnvironmentSchema, views: backupViewSchema, templates: backupTemplateSchema,
  schedules: backupScheduleSchema, integrations: backupIntegrationSchema, integration_aliases: z.string(),
  host_configs: backupHostConfigSchema, secret_storages: backupSecretStorageSchema, workflows: backupWorkflowSchema,
  alert_channels: backupAlertChannelSchema, event_webhooks: backupEventWebhookSchema, roles: backupRoleSchema,
} as const;
export type BackupSection = keyof typeof BACKUP_SECTION_ITEMS;

/** The whole backup, every item checked (the API document's description of the body). */
export const backupSchema = z.looseObject({
  meta: backupMetaSchema,
  keys: list(backupKeySchema, BACKUP_SECTION_LIMITS.keys),
  repositories: list(backupRepositorySchema, BACKUP_SECTION_LIMITS.repositories),
  inventories: list(backupInventorySchema, BACKUP_SECTION_LIMITS.inventories),
  environments: list(backupEnvironmentSchema, BACKUP_SECTION_LIMITS.environments),
  views: list(backupViewSchema, BACKUP_SECTION_LIMITS.views),
  templates: list(backupTemplateSchema, BACKUP_SECTION_LIMITS.templates),
  schedules: list(backupScheduleSchema, BACKUP_SECTION_LIMITS.schedules),
  integrations: list(backupIntegrationSchema, BACKUP_SECTION_LIMITS.integrations),
  integration_aliases: list(z.string(), BACKUP_SECTION_LIMITS.integration_aliases),
  host_configs: list(backupHostConfigSchema, BACKUP_SECTION_LIMITS.host_configs),
  secret_storages: list(backupSecretStorageSchema, BACKUP_SECTION_LIMITS.secret_storages),
  workflows: list(backupWorkflowSchema, BACKUP_SECTION_LIMITS.workflows),
  alert_channels: list(backupAlertChannelSchema, BACKUP_SECTION_LIMITS.alert_channels),
  event_webhooks: list(backupEventWebhookSchema, BACKUP_SECTION_LIMITS.event_webhooks),
  roles: list(backupRoleSchema, BACKUP_SECTION_LIMITS.roles),
});

/** A section of the outline: a list within the section's limit, its items not looked at. */
const outlineList = (section: BackupSection) => list(z.unknown(), BACKUP_SECTION_LIMITS[section]);

/**
 * The backup's outline: meta checked, each section a list within its limit, items unchecked.
 * Cheap at any size, so an oversized backup is refused before its items are looked at.
 */
export const backupOutlineSchema = z.looseObject({
  meta: backupMetaSchema, keys: outlineList('keys'), repositories: outlineList('repositories'), inventories: outlineList('inventories'),
  environments: outlineList('environments'), views: outlineList('views'), templates: outlineList('templates'),
  schedules: outlineList('schedules'), integrations: outlineList('integrations'), integration_aliases: outlineList('integration_aliases'),
  host_configs: outlineList('host_configs'), secret_storages: outlineList('secret_storages'), workflows: outlineList('workflows'),
  alert_channels: outlineList('alert_channels'), event_webhooks: outlineList('event_webhooks'), roles: outlineList('roles'),
});
export type BackupOutline = z.infer<typeof backupOutlineSchema>;

export type Backup = z.infer<typeof backupSchema>;
export type BackupTemplate = z.infer<typeof backupTemplateSchema>;
