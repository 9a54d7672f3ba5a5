import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Every table of the runner API. Times are ISO-8601 UTC strings (`2026-11-22T13:45:00.123Z`) so
 * they sort as text and read the same on SQLite and PostgreSQL. Booleans are integers 0/1
 * (better-sqlite3 cannot bind booleans); row mappers turn them back with `Boolean()`.
 * JSON columns hold serialised text.
 *
 * Contents, in the order the file keeps (each group's code lives in the folder named):
 * - People and sign-in (`auth/`, `domain/users/`, `domain/tokens/`, `domain/board/`): user,
 *   session, user_totp, external_identity, api_token, board_token, login_attempt, option.
 * - Projects and their activity (`domain/projects/`, `domain/events/`): project, project_user, event.
 * - Audit trail (`domain/audit/`, `audit-export/`): audit, audit_inbox, audit_export.
 * - Project resources (`domain/keys/`, `domain/secret-storages/`, `domain/repositories/`,
 *   `domain/host-configs/`, `domain/inventories/`, `domain/environments/`): access_key,
 *   secret_storage, repository, host_config, inventory, environment.
 * - Templates and views (`domain/templates/`, `domain/views/`): template, template_board_state,
 *   template_vault, template_inventory, template_environment, template_ssh_key, view.
 * - Schedules (`domain/schedules/`, `scheduler/`): schedule, schedule_firing.
 * - Incoming webhooks (`domain/integrations/`, `integrations/`): integration, its matchers,
 *   extract values, aliases and deliveries.
 * - Tasks and their runs (`domain/tasks/`, `engine/`, `domain/runners/`, `domain/invites/`): task,
 *   runner, project_invite, task output and its search blocks, stages, Ansible hosts and errors,
 *   engine_worker, task_secret.
 * - Terraform state (`domain/terraform/`): terraform_alias, terraform_state, terraform_lock.
 * - Workflows (`domain/workflows/`, `workflows/`): workflow, its nodes, edges, versions, runs,
 *   run nodes, approvals and run history; task_output_value.
 * - Row types (`UserRow`, `TaskRow`, … `AuditRow`): the selected shape of the tables most code reads.
 * - Alerts and outgoing webhooks (`domain/alert-channels/`, `domain/event-webhooks/`,
 *   `event-webhooks/`): alert_channel, template_alert_channel, event_webhook and its outbox and
 *   deliveries.
 */
export interface Database {
  user: UserTable;
  session: SessionTable;
  user_totp: UserTotpTable;
  external_identity: ExternalIdentityTable;
  api_token: ApiTokenTable;
  board_token: BoardTokenTable;
  login_attempt: LoginAttemptTable;
  option: OptionTable;
  project: ProjectTable;
  project_user: ProjectUserTable;
  event: EventTable;
  audit: AuditTable;
  audit_inbox: AuditInboxTable;
  audit_export: AuditExportTable;
  access_key: AccessKeyTable;
  secret_storage: SecretStorageTable;
  repository: RepositoryTable;
  host_config: HostConfigTable;
  inventory: InventoryTable;
  inventory_sync: InventorySyncTable;
  host_facts: HostFactsTable;
  inventory_sync_firing: InventorySyncFiringTable;
  environment: EnvironmentTable;
  template: TemplateTable;
  template_board_state: TemplateBoardStateTable;
  template_vault: TemplateVaultTable;
  template_inventory: TemplateInventoryTable;
  template_environment: TemplateEnvironmentTable;
  template_ssh_key: TemplateSshKeyTable;
  project_lock: ProjectLockTable;
  project_role: ProjectRoleTable;
  server_role: ServerRoleTable;
  template_grant: TemplateGrantTable;
  view_grant: ViewGrantTable;
  template_lock: TemplateLockTable;
  alert_channel: AlertChannelTable;
  template_alert_channel: TemplateAlertChannelTable;
  template_allowed_inventory: TemplateAllowedInventoryTable;
  event_webhook: EventWebhookTable;
  event_webhook_outbox: EventWebhookOutboxTable;
  event_webhook_delivery: EventWebhookDeliveryTable;
  view: ViewTable;
  schedule: ScheduleTable;
  schedule_firing: ScheduleFiringTable;
  integration: IntegrationTable;
  integration_matcher: IntegrationMatcherTable;
  integration_extract_value: IntegrationExtractValueTable;
  integration_alias: IntegrationAliasTable;
  integration_delivery: IntegrationDeliveryTable;
  task: TaskTable;
  task_output: TaskOutputTable;
  task_output_block: TaskOutputBlockTable;
  task_stage: TaskStageTable;
  task_ansible_host: TaskAnsibleHostTable;
  task_ansible_error: TaskAnsibleErrorTable;
  engine_worker: EngineWorkerTable;
  runner: RunnerTable;
  project_invite: ProjectInviteTable;
  task_secret: TaskSecretTable;
  terraform_alias: TerraformAliasTable;
  terraform_state: TerraformStateTable;
  terraform_lock: TerraformLockTable;
  workflow: WorkflowTable;
  workflow_node: WorkflowNodeTable;
  workflow_edge: WorkflowEdgeTable;
  workflow_version: WorkflowVersionTable;
  workflow_run: WorkflowRunTable;
  workflow_run_node: WorkflowRunNodeTable;
  workflow_approval: WorkflowApprovalTable;
  workflow_run_history: WorkflowRunHistoryTable;
  task_output_value: TaskOutputValueTable;
}

type Id = Generated<number>;
type Flag = number;

export interface UserTable {
  id: Id;
  created: string;
  username: string;
  name: string;
  email: string;
  password: string;
  admin: Flag;
  external: Flag;
  alert: Flag;
  can_create_project: Generated<Flag>;
  /** 0 once the user set their email themselves: it then proves no address (email invitations) */
  email_verified: Generated<Flag>;
}

export interface SessionTable {
  id: string;
  user_id: number;
  created: string;
  last_active: string;
  ip: string;
  user_agent: string;
  expired: Flag;
  /** 0 while the session waits for its second factor (`verification_method` says which) */
  verified: Generated<Flag>;
  verification_method: Generated<string>;
}

/** A user's TOTP enrolment: the secret is sealed, the recovery code kept only as a bcrypt hash. */
export interface UserTotpTable {
  id: Id;
  user_id: number;
  created: string;
  secret: string;
  recovery_hash: string;
  /** the last time step a code was accepted for; older or equal steps are replays */
  last_step: Generated<number>;
}

/** An identity of an OIDC provider or LDAP linked to a user: it signs in by (provider, subject) only. */
export interface ExternalIdentityTable {
  id: Id;
  user_id: number;
  /** `oidc:<provider id>` or `ldap` */
  provider: string;
  subject: string;
  created: string;
}

/** API tokens are stored as a SHA-256 hash; `prefix` (first 8 chars) is what lists show. */
export interface ApiTokenTable {
  hash: string;
  prefix: string;
  user_id: number;
  name: string;
  created: string;
  expires_at: string | null;
  expired: Flag;
  /** whether an assistant on the MCP server may start, stop and approve with it */
  allow_write_operations: Generated<Flag>;
}

/** A read-only wall-board token: a hash of the secret, its projects (JSON array) and board options (JSON). */
export interface BoardTokenTable {
  id: Id;
  hash: string;
  prefix: string;
  user_id: number;
  name: string;
  project_ids: string;
  options: string;
  created: string;
}

/** Failed sign-ins, per user name and per IP, for throttling. */
export interface LoginAttemptTable {
  id: Id;
  subject: string;
  created: string;
}

export interface OptionTable {
  key: string;
  value: string;
}

export interface ProjectTable {
  id: Id;
  name: string;
  created: string;
  alert: Flag;
  alert_chat: string | null;
  max_parallel_tasks: number;
  type: string;
  /** retention (0 = the global setting): days tasks are kept, tasks kept per template, days output is kept */
  task_retention_days: Generated<number>;
  task_retention_count: Generated<number>;
  output_retention_days: Generated<number>;
  /** the image its templates' tasks run in when a template names none (null: the server's default) */
  executor_image: Generated<string | null>;
}

export interface ProjectUserTable {
  project_id: number;
  user_id: number;
  role: string;
  created: string;
}

export interface EventTable {
  id: Id;
  project_id: number | null;
  user_id: number | null;
  integration_id: number | null;
  object_id: number | null;
  object_type: string;
  object_name: string;
  description: string;
  created: string;
  /** the audit row of the request (or server job) that made it; null for older entries */
  audit_id: number | null;
}

/** One audit-trail record (issue 32); names are kept as they were, ids are not foreign keys. */
export interface AuditTable {
  id: Id;
  created: string;
  action: string;
  actor_user_id: number | null;
  actor_name: Generated<string>;
  /** the short prefix of the API token used, never the secret */
  actor_token: Generated<string>;
  client_ip: Generated<string>;
  user_agent: Generated<string>;
  project_id: number | null;
  project_name: Generated<string>;
  object_type: Generated<string>;
  object_id: number | null;
  object_name: Generated<string>;
  /** comma-separated names of the fields an update set (never values) */
  fields: Generated<string>;
  description: Generated<string>;
  /** "METHOD /api/route/:pattern" of the request that made the change ('' for the server itself) */
  request: Generated<string>;
  /** export sequence number, given when the row moves in from `audit_inbox` */
  seq: number | null;
}

/**
 * An audit row not yet moved into `audit` (and so without its sequence number), with the
 * activity-log entry it carries into `event` (`event_id` null: none).
 */
export type AuditInboxTable = Omit<AuditTable, 'seq'> & {
  event_id: number | null;
  event_project_id: number | null;
  event_user_id: number | null;
  event_integration_id: number | null;
  event_object_id: number | null;
  event_object_type: string | null;
  event_object_name: string | null;
  event_description: string | null;
};

/** Per export sink: the last sequence number delivered; `_sequence` holds the last one given. */
export interface AuditExportTable {
  sink: string;
  delivered_seq: Generated<number>;
  last_error: Generated<string>;
  updated: Generated<string>;
}

/** `owner`: '' for key-store keys, 'environment' for variable-group secrets (then environment_id). */
export interface AccessKeyTable {
  id: Id;
  project_id: number;
  name: string;
  type: string;
  secret: string | null;
  owner: string;
  environment_id: number | null;
  created: string;
  /** the key's value lives in this external storage (at `source_storage_key`, `path#field`) */
  source_storage_id: Generated<number | null>;
  source_storage_key: Generated<string | null>;
  /** `env` / `file`: the value is read at task start from the server variable or file named by `source_storage_key` */
  source_storage_type: Generated<string | null>;
}

/** An external secret storage (HashiCorp Vault, OpenBao); `secret` is its own credential, sealed. */
export interface SecretStorageTable {
  id: Id;
  project_id: number;
  name: string;
  type: string;
  params: string;
  readonly: Flag;
  secret: string | null;
  created: string;
}

export interface RepositoryTable {
  id: Id;
  project_id: number;
  name: string;
  git_url: string;
  git_branch: string;
  ssh_key_id: number;
  pull_submodules: Generated<Flag>;
}

/** `type` 'host': `host` is an SSH host name; 'url': a git URL prefix. */
export interface HostConfigTable {
  id: Id;
  project_id: number;
  type: string;
  host: string;
  ssh_key_id: number;
}

export interface InventoryTable {
  id: Id;
  project_id: number;
  name: string;
  type: string;
  inventory: string;
  ssh_key_id: number | null;
  become_key_id: number | null;
  repository_id: number | null;
  holder_id: number | null;
  /** a url or script inventory's key for reading its source */
  source_key_id: Generated<number | null>;
  /** a url or script inventory's sync schedule (cron); null: none */
  sync_cron: Generated<string | null>;
}

/** One sync of a url or script inventory: hosts added and removed, the listing read (JSON), or Ansible's error. */
export interface InventorySyncTable {
  id: Id;
  inventory_id: number;
  created: string;
  user_id: number | null;
  task_id: number | null;
  hosts_added: Generated<string>;
  hosts_removed: Generated<string>;
  listing: string | null;
  error: string | null;
  /** 1: its inventory's sync schedule started it */
  scheduled: Generated<number>;
}

/** One row per (inventory, due time of its sync schedule): the claim that stops two servers syncing the same time. */
export interface InventorySyncFiringTable {
  inventory_id: number;
  due_at: string;
}

export interface HostFactsTable {
  id: Id;
  project_id: number;
  host: string;
  task_id: number;
  gathered: string;
  distribution: string | null;
  distribution_version: string | null;
  ipv4: string | null;
  hostname: string | null;
}

export interface EnvironmentTable {
  id: Id;
  project_id: number;
  name: string;
  password: string | null;
  json: string;
  env: string | null;
}

export interface TemplateTable {
  id: Id;
  project_id: number;
  name: string;
  app: string;
  type: string;
  playbook: string;
  description: string;
  inventory_id: number | null;
  repository_id: number | null;
  environment_id: number | null;
  arguments: string | null;
  allow_override_args_in_task: Flag;
  allow_override_branch_in_task: Flag;
  allow_parallel_tasks: Flag;
  start_version: string | null;
  build_template_id: number | null;
  view_id: number | null;
  autorun: Flag;
  git_branch: string | null;
  survey_vars: string;
  suppress_success_alerts: Flag;
  task_params: string;
  runner_tag: string | null;
  working_directory: string | null;
  created: string;
  suppress_error_alerts: Generated<Flag>;
  /** with successes muted: the first success after a failure still alerts (alert choice `fixed`) */
  alert_fixed: Generated<Flag>;
  executor_image: Generated<string | null>;
  /** the container its tasks run in (issue 47): network mode (null = the engine's default bridge), limits, user, pull policy, registry key */
  executor_network: Generated<string | null>;
  executor_cpus: Generated<string | null>;
  executor_memory: Generated<string | null>;
  executor_user: Generated<string | null>;
  executor_pull: Generated<string | null>;
  executor_registry_key_id: Generated<number | null>;
  /** 1: nothing may start a task of it */
  disabled: Generated<Flag>;
  /** task identity token: on, audiences (JSON array), lifetime ('' = jwt.default_ttl) */
  jwt_enabled: Generated<Flag>;
  jwt_audience: Generated<string | null>;
  jwt_ttl: Generated<string | null>;
  /** active tasks at most (null: one, or any number with allow_parallel_tasks) and what a start past it does (domain/templates/concurrency-fields.ts) */
  concurrency_limit: Generated<number | null>;
  concurrency_policy: Generated<string>;
  /** at most this many starts in any window (a duration such as 10m); past it triggers are refused */
  rate_limit_starts: Generated<number | null>;
  rate_limit_window: Generated<string | null>;
}

/** The wall board's state of a template, kept by database triggers (migration t_template_board_state). */
export interface TemplateBoardStateTable {
  template_id: number;
  project_id: number;
  view_id: number | null;
  name: string;
  last_task_id: number | null;
  last_success_id: number | null;
  /** failed tasks since the last successful one (all of them when it never succeeded) */
  fail_streak: Generated<number>;
  /** 1 when the last task's status is active (starting, running, waiting_confirmation, confirmed, stopping) */
  running: Generated<Flag>;
}

export interface TemplateVaultTable {
  id: Id;
  project_id: number;
  template_id: number;
  vault_key_id: number | null;
  name: string | null;
  type: string;
  script: string | null;
}

/** Extra terraform/tofu workspaces attached to a template. */
export interface TemplateInventoryTable {
  template_id: number;
  inventory_id: number;
}

/** A template's variable groups in order (position 0 is `template.environment_id`); later ones override earlier ones. */
export interface TemplateEnvironmentTable {
  template_id: number;
  environment_id: number;
  position: number;
}

/** A template's extra SSH keys in order, offered to every SSH connection of its tasks. */
export interface TemplateSshKeyTable {
  template_id: number;
  ssh_key_id: number;
  position: number;
}

/** A named lock of a project: at most `capacity` active tasks hold it at once (domain/locks). */
export interface ProjectLockTable {
  id: Id;
  project_id: number;
  name: string;
  capacity: number;
  description: string;
  created: string;
}

/** A custom role of a project: members whose role is `slug` act with `permissions` (domain/roles). */
export interface ProjectRoleTable {
  id: Id;
  project_id: number;
  slug: string;
  name: string;
  permissions: number;
  created: string;
}

/** A role an admin defines for every project (domain/roles/server-role.service.ts): members whose role is `slug` act with `permissions`. */
export interface ServerRoleTable {
  id: Id;
  slug: string;
  name: string;
  permissions: number;
  created: string;
}

/** Who may see (and with `can_run` start) a template that has grants: a role slug or a user (domain/templates/template-grants.ts). */
export interface TemplateGrantTable {
  id: Id;
  template_id: number;
  role: string | null;
  user_id: number | null;
  can_run: Flag;
  /** written by the directory group mapping (auth/group-roles.ts), rewritten at each sign-in */
  directory: Generated<Flag>;
}

/** A grant on a view: the same as a template grant on each template in the view. */
export interface ViewGrantTable {
  id: Id;
  view_id: number;
  role: string | null;
  user_id: number | null;
  can_run: Flag;
  directory: Generated<Flag>;
}

/** A lock a template's tasks need: each active task of the template holds it. */
export interface TemplateLockTable {
  template_id: number;
  lock_id: number;
}

export interface ViewTable {
  id: Id;
  project_id: number;
  title: string;
  position: number;
  hidden: Flag;
  type: string;
  sort_column: string | null;
  sort_reverse: Flag;
}

export interface ScheduleTable {
  id: Id;
  project_id: number;
  template_id: number;
  name: string;
  cron_format: string;
  type: string;
  run_at: string | null;
  active: Flag;
  repository_id: number | null;
  last_commit_hash: string | null;
  task_params: string;
  /** IANA zone the schedule's times are read in; null: the server's schedule time zone */
  timezone: string | null;
  /** why its latest firing started nothing ('' when it started a task) */
  last_error: Generated<string>;
  /** who it acts for: the person who last saved it (null: saved before owners were kept) */
  owner_id: Generated<number | null>;
}

/** One row per (schedule, due time): the claim that stops two servers firing the same time. */
export interface ScheduleFiringTable {
  schedule_id: number;
  due_at: string;
  task_id: number | null;
}

export interface IntegrationTable {
  id: Id;
  project_id: number;
  name: string;
  template_id: number;
  auth_method: string;
  auth_secret_id: number | null;
  auth_header: string | null;
  searchable: Flag;
  task_params: string;
  /** seconds in which identical deliveries start one task; null: every delivery starts one */
  once_within: Generated<number | null>;
  /** who it acts for: the person who last saved it (null: saved before owners were kept) */
  owner_id: Generated<number | null>;
}

export interface IntegrationMatcherTable {
  id: Id;
  integration_id: number;
  name: string;
  match_type: string;
  method: string;
  body_data_type: string;
  key: string;
  value: string;
}

export interface IntegrationExtractValueTable {
  id: Id;
  integration_id: number;
  name: string;
  value_source: string;
  body_data_type: string;
  key: string;
  variable: string;
  variable_type: string;
}

export interface IntegrationAliasTable {
  id: Id;
  alias: string;
  project_id: number;
  integration_id: number | null;
}

export interface IntegrationDeliveryTable {
  id: Id;
  project_id: number;
  integration_id: number;
  created: string;
  matched: Flag;
  reason: string;
  task_id: number | null;
}

/**
 * Tasks double as the queue: `status = 'waiting'` rows are claimed by setting `locked_by`.
 * `params` holds the app's task params as JSON (ansible: debug, dry_run, diff, limit...).
 */
export interface TaskTable {
  id: Id;
  project_id: number;
  template_id: number;
  status: string;
  user_id: number | null;
  integration_id: number | null;
  schedule_id: number | null;
  build_task_id: number | null;
  inventory_id: number | null;
  playbook: string;
  environment: string;
  arguments: string | null;
  git_branch: string | null;
  message: string;
  commit_hash: string | null;
  commit_message: string;
  version: string | null;
  params: string;
  created: string;
  start: string | null;
  end: string | null;
  locked_by: string | null;
  /** process group of the task's current command, and where it runs (crash recovery ends it) */
  process_group: number | null;
  process_host: string | null;
  process_boot_id: string | null;
  /** the remote runner the task was handed to; null when it runs in a server */
  runner_id: Generated<number | null>;
  /** 1 when its values came from someone who may edit the template; others reach Ansible marked unsafe */
  trusted_values: Generated<Flag>;
  /** JSON array of the variable groups the task ran with, in order; null on tasks from before */
  environment_ids: Generated<string | null>;
  /** while waiting: JSON of what it waits for (domain/tasks/wait-reason.ts); null otherwise */
  waiting_for: Generated<string | null>;
  /** the container image the task ran in; null: on the host */
  executor_image: Generated<string | null>;
  /** high, normal or low (domain/tasks/priority.ts) */
  priority: Generated<string>;
  /** the claim takes the lowest first: arrival in seconds less one aging step per priority level */
  queue_rank: Generated<number>;
  /** a webhook's task: the digest of the delivery that started it (integration once_within) */
  trigger_digest: Generated<string | null>;
}

/** A remote runner (global when project_id is null); tokens only as SHA-256 hashes. */
export interface RunnerTable {
  id: Id;
  project_id: number | null;
  name: string;
  webhook: string;
  max_parallel_tasks: number;
  active: Flag;
  /** JSON array of tag strings */
  tags: string;
  token_hash: string | null;
  registration_token_hash: string | null;
  public_key: string | null;
  touched: string | null;
  cleaning_requested: string | null;
  created: string;
  /** takes the untagged tasks of its scope (one per project, one global) */
  is_default: Generated<Flag>;
}

/** An invitation to a project (a user or an email address); the token is kept as a hash. */
export interface ProjectInviteTable {
  id: Id;
  project_id: number;
  user_id: number | null;
  email: string | null;
  role: string;
  /** pending, accepted, declined, expired */
  status: string;
  token_hash: string;
  /** hash of the second token, the one only the mail to `email` carries (null when none was mailed) */
  email_token_hash: Generated<string | null>;
  inviter_user_id: number | null;
  created: string;
  expires_at: string | null;
  accepted_at: string | null;
}
export type ProjectInviteRow = Selectable<ProjectInviteTable>;

/** A search block: BLOCK_LINES consecutive rows of a task's log, lowercased, joined by newlines. */
export interface TaskOutputBlockTable {
  task_id: number;
  first_id: number;
  last_id: number;
  text: string;
}

export interface TaskOutputTable {
  id: Generated<number>;
  task_id: number;
  time: string;
  output: string;
  /** 1-based line number within the task, written by insert-output (null only for rows stored another way) */
  line: number | null;
}

/** One stage of a task's run (Semaphore's `TaskStage`): init, terraform_plan, running, print_result. */
export interface TaskStageTable {
  id: Id;
  task_id: number;
  type: string;
  start: string | null;
  end: string | null;
  /** first and last `task_output.id` of the stage, once it ended */
  start_output_id: number | null;
  end_output_id: number | null;
  /** JSON text, or null */
  result: string | null;
}

/** One host's line of an Ansible PLAY RECAP. */
export interface TaskAnsibleHostTable {
  id: Id;
  task_id: number;
  project_id: number;
  host: string;
  ok: number;
  changed: number;
  unreachable: number;
  failed: number;
  skipped: number;
  rescued: number;
  ignored: number;
  created: string;
}

/** One failed or unreachable Ansible task on one host, with its message. */
export interface TaskAnsibleErrorTable {
  id: Id;
  task_id: number;
  project_id: number;
  host: string;
  task: string;
  error: string;
  created: string;
}

/** A running task engine (`task.locked_by` = its id) and when it last said it was alive. */
export interface EngineWorkerTable {
  id: string;
  host: string;
  pid: number;
  started: string;
  heartbeat_at: string;
}

/** Survey-secret values of a queued task (JSON object, sealed), until an engine claims the task. */
export interface TaskSecretTable {
  task_id: number;
  sealed: string;
}

/** A public URL (`/api/terraform/<alias>`) of a workspace inventory's state; `auth_key_id` is the login_password key for basic auth. */
export interface TerraformAliasTable {
  id: Id;
  project_id: number;
  inventory_id: number;
  alias: string;
  auth_key_id: number | null;
  created: string;
}

/** One version of a workspace's state, as written by `terraform`/`tofu` (task_id when a task wrote it). */
export interface TerraformStateTable {
  id: Id;
  project_id: number;
  inventory_id: number;
  task_id: number | null;
  state: string;
  created: string;
}

/** The lock a workspace holds while terraform works on it; `info` is terraform's lock info JSON. */
export interface TerraformLockTable {
  inventory_id: number;
  lock_id: string;
  info: string;
  created: string;
}

export interface WorkflowTable {
  id: Id;
  project_id: number;
  name: string;
  description: string;
  start_version: string | null;
  created: string;
}

/** `kind`: task, approval, delay or note; `task_params` JSON. */
export interface WorkflowNodeTable {
  id: Id;
  workflow_id: number;
  kind: string;
  name: string;
  template_id: number | null;
  convergence_mode: string;
  approval_timeout: number;
  approval_message: string;
  approval_four_eyes: Flag;
  delay_seconds: number;
  note: string;
  task_params: string;
  pos_x: number;
  pos_y: number;
}

/** `condition`: on_success, on_failure or always; `input_mode`: by_name or explicit (`input_mappings` JSON). */
export interface WorkflowEdgeTable {
  id: Id;
  workflow_id: number;
  source_node_id: number;
  destination_node_id: number;
  condition: string;
  input_mode: string;
  input_mappings: string;
}

export interface WorkflowVersionTable {
  id: Id;
  workflow_id: number;
  version_number: number;
  parent_version_id: number | null;
  restored_from_version_id: number | null;
  author_user_id: number | null;
  message: string;
  content_fingerprint: string;
  definition: string;
  created: string;
}

/** `definition`: the graph as it was when the run started (JSON); edits do not change a run. */
export interface WorkflowRunTable {
  id: Id;
  project_id: number;
  workflow_id: number;
  version_id: number | null;
  definition: string;
  status: string;
  user_id: number | null;
  version: string | null;
  created: string;
  start: string | null;
  end: string | null;
}

/** One row per node a run reached; unique (run_id, node_id): inserting it claims the node's start. */
export interface WorkflowRunNodeTable {
  id: Id;
  run_id: number;
  node_id: number;
  kind: string;
  status: string;
  task_id: number | null;
  /** when a delay ends or an approval times out */
  due: string | null;
  /** JSON object handed on by this node (a task's outputs; what approval and delay nodes pass through) */
  outputs: string | null;
  reason: string;
  /** the lines that start the task's log: which output filled which survey variable */
  input_log: string;
  start: string;
  end: string | null;
}

export interface WorkflowApprovalTable {
  id: Id;
  project_id: number;
  run_id: number;
  node_id: number;
  status: string;
  created: string;
  resolved: string | null;
  resolved_by_user_id: number | null;
  comment: string;
}

export interface WorkflowRunHistoryTable {
  id: Id;
  run_id: number;
  node_id: number | null;
  user_id: number | null;
  kind: string;
  message: string;
  created: string;
}

/** The outputs a task wrote to SEMAPHORE_OUTPUTS_FILE (JSON object), and what was not captured (JSON list). */
export interface TaskOutputValueTable {
  task_id: number;
  outputs: string;
  not_captured: string;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type ProjectRow = Selectable<ProjectTable>;
export type TaskRow = Selectable<TaskTable>;
export type RunnerRow = Selectable<RunnerTable>;
export type TaskStageRow = Selectable<TaskStageTable>;
export type TaskAnsibleHostRow = Selectable<TaskAnsibleHostTable>;
export type TaskAnsibleErrorRow = Selectable<TaskAnsibleErrorTable>;
export type TemplateRow = Selectable<TemplateTable>;
export type WorkflowRow = Selectable<WorkflowTable>;
export type WorkflowNodeRow = Selectable<WorkflowNodeTable>;
export type WorkflowEdgeRow = Selectable<WorkflowEdgeTable>;
export type WorkflowRunRow = Selectable<WorkflowRunTable>;
export type WorkflowRunNodeRow = Selectable<WorkflowRunNodeTable>;
export type WorkflowApprovalRow = Selectable<WorkflowApprovalTable>;
export type AuditRow = Selectable<AuditTable>;

/** A project's alert channel: `target` is plain (chat id, gotify server, addresses), `secret` sealed (URL or token). */
export interface AlertChannelTable {
  id: Id;
  project_id: number;
  kind: string;
  name: string;
  active: Generated<Flag>;
  target: Generated<string>;
  secret: string | null;
  created: string;
}

/** The alert channels a template chose; none means all of the project's. */
export interface TemplateAlertChannelTable {
  template_id: number;
  channel_id: number;
}

/** The inventories a start of a template may choose; none means any of the project's. */
export interface TemplateAllowedInventoryTable {
  template_id: number;
  inventory_id: number;
}

/** An outgoing event webhook: `secret` (sealed) signs each body; `events` is a JSON array of event names. */
export interface EventWebhookTable {
  id: Id;
  project_id: number;
  name: string;
  url: string;
  secret: string | null;
  events: Generated<string>;
  active: Generated<Flag>;
  created: string;
}

/** One event waiting for one endpoint; deleted once delivered or given up. */
export interface EventWebhookOutboxTable {
  id: Id;
  webhook_id: number;
  event: string;
  payload: string;
  attempts: Generated<number>;
  next_at: string;
  created: string;
}

/** One delivery attempt, for the deliveries log. */
export interface EventWebhookDeliveryTable {
  id: Id;
  webhook_id: number;
  event: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: Generated<string>;
  created: string;
}
