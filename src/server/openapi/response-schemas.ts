import { prioritySchema } from '../domain/tasks/priority.ts';
import type { Lock } from '../domain/locks/lock.ts';
import type { Role } from '../domain/roles/role.ts';
import type { ServerRole } from '../domain/roles/server-role.service.ts';
import type { TemplateGrant } from '../domain/templates/template-grants.ts';
import { z } from 'zod';
import type { Project } from '../domain/projects/project.ts';
import type { User } from '../domain/users/user.ts';
import type { AccessKey } from '../domain/keys/access-key.ts';
import type { SecretStorage } from '../domain/secret-storages/secret-storage.ts';
import type { StorageRefs } from '../domain/secret-storages/secret-storage.service.ts';
import type { Repository } from '../domain/repositories/repository.ts';
import type { HostConfig } from '../domain/host-configs/host-config.ts';
import { ALERT_CHANNEL_KINDS, type AlertChannel } from '../domain/alert-channels/alert-channel.ts';
import { WEBHOOK_EVENTS, type EventWebhook, type deliveryRowToEventDelivery } from '../domain/event-webhooks/event-webhook.ts';
import type { Inventory } from '../domain/inventories/inventory.ts';
import type { Task, TaskWithTpl } from '../domain/tasks/task.ts';
import type { ApiToken } from '../domain/tokens/api-token.repository.ts';
import type { BoardData } from '../domain/board/board.queries.ts';
import type { BoardToken } from '../domain/board/board-token.repository.ts';
import type { viewRowToView } from '../domain/views/view.ts';
import type { scheduleRowToSchedule } from '../domain/schedules/schedule.ts';
import type { integrationRowToIntegration } from '../domain/integrations/integration.ts';

// Response bodies as the API documents them. Each is checked against the TypeScript type the
// route serialises (`satisfies`), so a field added to a response without its schema fails tsc.
// Objects are strict in the document: a field the schema does not name fails the contract test.

const id = z.number().int();
const time = z.string();

export const errorSchema = z.object({ error: z.string() }).meta({ id: 'Error' });

export const projectSchema = z.object({
  id, name: z.string(), created: time, alert: z.boolean(), alert_chat: z.string().nullable(),
  max_parallel_tasks: z.number().int(), type: z.string(),
  task_retention_days: z.number().int(), task_retention_count: z.number().int(), output_retention_days: z.number().int(),
  executor_image: z.string().nullable().meta({ description: "Signalbox: the container image of the project's templates that name none; null: the server's default" }),
}).meta({ id: 'Project' }) satisfies z.ZodType<Project>;

export const userSchema = z.object({
  id, created: time, username: z.string(), name: z.string(), email: z.string(), admin: z.boolean(),
  external: z.boolean(), alert: z.boolean(), pro: z.boolean(), can_create_project: z.boolean(),
}).meta({ id: 'User' }) satisfies z.ZodType<User>;

export const currentUserSchema = userSchema.extend({
  has_active_subscription: z.boolean(),
}).meta({ id: 'CurrentUser' });

/** Semaphore 2.20's UserExternalIdentity */
export const externalIdentitySchema = z.object({
  id, user_id: id, type: z.enum(['ldap', 'oidc']),
  provider: z.string().meta({ description: 'ldap, or the key in oidc_providers' }),
  external_uid: z.string().meta({ description: 'the OIDC sub claim, or the LDAP login' }),
  created: z.string(),
}).meta({ id: 'UserExternalIdentity' });

export const accessKeySchema = z.object({
  id, name: z.string(), type: z.string(), project_id: id, string: z.string(),
  login_password: z.object({ login: z.string(), password: z.string() }),
  ssh: z.object({ login: z.string(), passphrase: z.string(), private_key: z.string() }),
  override_secret: z.boolean(), empty: z.boolean().optional(),
  source_storage_id: id.nullable().meta({ description: 'The secret storage the value is read from at task start (null: stored here)' }),
  source_storage_key: z.string().nullable().meta({ description: 'Where in the storage: path#field; or the server environment variable or file path' }),
  source_storage_type: z.enum(['vault', 'env', 'file']).nullable().meta({ description: 'vault: a secret storage; env / file: read at task start from the server (allowed by secret_sources); null: stored here' }),
}).meta({ id: 'AccessKey' }) satisfies z.ZodType<AccessKey>;

export const secretStorageSchema = z.object({
  id, project_id: id, name: z.string(), type: z.string().meta({ description: 'vault or openbao' }),
  params: z.record(z.string(), z.unknown()).meta({ description: 'url, mount, namespace, kv_version (2), auth_method (token, approle, jwt), auth_mount, role_id, role' }),
  readonly: z.boolean(), has_secret: z.boolean().meta({ description: 'Whether a token or AppRole secret id is stored (never returned)' }),
}).meta({ id: 'SecretStorage' }) satisfies z.ZodType<SecretStorage>;

export const storageRefsSchema = z.object({
  keys: z.array(z.object({ id, name: z.string(), type: z.string() })),
  secrets: z.array(z.object({ id, name: z.string(), type: z.string(), environment_id: id.nullable() })),
}).meta({ id: 'SecretStorageRefs' }) satisfies z.ZodType<StorageRefs>;

export const repositorySchema = z.object({
  id, name: z.string(), project_id: id, git_url: z.string(), git_branch: z.string(), ssh_key_id: id, pull_submodules: z.boolean(),
}).meta({ id: 'Repository' }) satisfies z.ZodType<Repository>;

export const hostConfigSchema = z.object({
  id, project_id: id, type: z.enum(['host', 'url']), host: z.string(), ssh_key_id: id,
}).meta({ id: 'HostConfig' }) satisfies z.ZodType<HostConfig>;

export const alertChannelSchema = z.object({
  id, project_id: id, kind: z.enum(ALERT_CHANNEL_KINDS), name: z.string(), active: z.boolean(), url_set: z.boolean(), token_set: z.boolean(),
  chat_id: z.string(), server_url: z.string(), emails: z.array(z.string()), created: time,
}).meta({ id: 'AlertChannel' }) satisfies z.ZodType<AlertChannel>;

export const eventWebhookSchema = z.object({
  id, project_id: id, name: z.string(), url: z.string(), secret_set: z.boolean(), events: z.array(z.enum(WEBHOOK_EVENTS)), active: z.boolean(), created: time,
}).meta({ id: 'EventWebhook' }) satisfies z.ZodType<EventWebhook>;

export const eventDeliverySchema = z.object({
  id, webhook_id: id, created: time, event: z.string(), attempt: z.number().int(), status_code: z.number().int().nullable(),
  duration_ms: z.number().int(), error: z.string(), ok: z.boolean(),
}).meta({ id: 'EventWebhookDelivery' }) satisfies z.ZodType<ReturnType<typeof deliveryRowToEventDelivery>>;

/** `GET …/inventory/{id}/hosts`: what ansible-inventory --list read. */
export const inventoryHostsSchema = z.object({
  groups: z.array(z.object({ name: z.string(), hosts: z.array(z.string()), children: z.array(z.string()) })),
  hosts: z.array(z.object({ name: z.string(), groups: z.array(z.string()) })),
});

const hostRun = z.object({ template_id: id, template_name: z.string(), task_id: id, result: z.enum(['failed', 'unreachable', 'changed', 'ok']), time: z.string() });
const hostFields = {
  name: z.string(), groups: z.array(z.string()), inventories: z.array(z.object({ id, name: z.string() })),
  results: z.array(hostRun), last_seen: z.string().nullable(),
  facts: z.object({
    distribution: z.string().nullable(), distribution_version: z.string().nullable(), ipv4: z.string().nullable(), hostname: z.string().nullable(),
    task_id: id, gathered: z.string(),
  }).nullable().meta({ description: 'What fact gathering reported in the newest run that gathered it (null: never gathered)' }),
};
const inventoryErrors = z.array(z.object({ inventory_id: id, inventory_name: z.string(), error: z.string() }));

/** `GET …/hosts`: the Hosts view's page. */
export const projectHostsSchema = z.object({ hosts: z.array(z.object(hostFields)), total: z.number().int(), errors: inventoryErrors });

/** `GET …/hosts/{host}`: one host with its newest runs. */
export const hostDetailSchema = z.object({ ...hostFields, tasks: z.array(hostRun), errors: inventoryErrors }).meta({ id: 'HostDetail' });

export const inventorySchema = z.object({
  id, name: z.string(), project_id: id, inventory: z.string(), type: z.string(),
  ssh_key_id: id.nullable(), become_key_id: id.nullable(), repository_id: id.nullable(), holder_id: id.nullable(),
  source_key_id: id.nullable().meta({ description: 'A url or script inventory: the key its source is read with' }),
  sync_cron: z.string().nullable().meta({ description: 'A url or script inventory: its sync schedule (cron, in the server\'s schedule time zone)' }),
}).meta({ id: 'Inventory' }) satisfies z.ZodType<Inventory>;

export const inventorySyncSchema = z.object({
  id, inventory_id: id, created: z.string(), user_id: id.nullable(), task_id: id.nullable(),
  scheduled: z.boolean().meta({ description: 'Started by the inventory\'s sync schedule' }),
  hosts_added: z.array(z.string()), hosts_removed: z.array(z.string()), host_count: z.number().int().nullable(), error: z.string().nullable(),
}).meta({ id: 'InventorySync' });

export const lockSchema = z.object({
  id, project_id: id, name: z.string(), capacity: z.number().int(), description: z.string(),
  templates: z.array(id).meta({ description: 'The templates that need the lock' }),
  held_by: z.array(id).meta({ description: 'The active tasks holding it, oldest first' }),
  waiting: z.number().int().meta({ description: 'Waiting tasks whose template needs it' }),
}).meta({ id: 'Lock' }) satisfies z.ZodType<Lock>;

export const projectRoleSchema = z.object({
  id: id.nullable().meta({ description: "null for Semaphore's four built-in roles and the server's roles" }), slug: z.string().meta({ description: 'What a member\'s `role` holds' }),
  name: z.string(), permissions: z.number().int().meta({ description: 'Permission bits (1 run tasks, 2 update project, 4 manage resources, 8 manage users, 16 see templates, 32 edit inventories, 64 edit variable groups, 128 manage keys, 256 manage schedules, 512 approve workflow gates, 1024 read the audit log)' }),
  builtin: z.boolean(), server: z.boolean().meta({ description: 'a server-wide role (`/api/roles`, admins change it)' }),
}).meta({ id: 'ProjectCustomRole' }) satisfies z.ZodType<Role>;

export const serverRoleSchema = z.object({
  id, slug: z.string().meta({ description: 'What a member\'s `role` holds in any project' }), name: z.string(), permissions: z.number().int(),
}).meta({ id: 'ServerRole' }) satisfies z.ZodType<ServerRole>;

export const templateGrantsSchema = z.object({
  grants: z.array(z.object({
    role: z.string().nullable().meta({ description: "a role's slug, or null for a user's grant" }),
    user_id: id.nullable().meta({ description: "a member's id, or null for a role's grant" }),
    run: z.boolean().meta({ description: 'may start the template, not only see it' }),
  })),
}).meta({ id: 'TemplateGrants' }) satisfies z.ZodType<{ grants: TemplateGrant[] }>;

export const viewSchema = z.object({
  id, project_id: id, title: z.string(), position: z.number().int(), hidden: z.boolean(), type: z.string(),
  sort_column: z.string().optional(), sort_reverse: z.boolean(),
}).meta({ id: 'View' }) satisfies z.ZodType<ReturnType<typeof viewRowToView>>;

const ownerId = id.nullable().meta({ description: 'Signalbox: who it acts for, the person who last saved it (null: unknown; a template with grants refuses its starts until someone saves it again). Ignored on input' });

export const scheduleSchema = z.object({
  id, project_id: id, template_id: id, name: z.string(), cron_format: z.string(), type: z.string(), run_at: z.string().optional(),
  active: z.boolean(), repository_id: id.nullable(), task_params: z.record(z.string(), z.unknown()), timezone: z.string(),
  owner_id: ownerId,
  last_error: z.string().optional().meta({ description: 'Signalbox: why its latest firing started nothing' }),
  tpl_name: z.string().optional(),
}).meta({ id: 'Schedule' }) satisfies z.ZodType<ReturnType<typeof scheduleRowToSchedule>>;

export const integrationSchema = z.object({
  id, name: z.string(), project_id: id, template_id: id, auth_method: z.string(), auth_secret_id: id.nullable(), auth_header: z.string(),
  searchable: z.boolean(), task_params: z.record(z.string(), z.unknown()), once_within: z.number().int().nullable(),
  owner_id: ownerId,
}).meta({ id: 'Integration' }) satisfies z.ZodType<ReturnType<typeof integrationRowToIntegration>>;

const taskFields = {
  id, template_id: id, project_id: id, status: z.string(), debug: z.boolean(), dry_run: z.boolean(), diff: z.boolean(),
  playbook: z.string(), environment: z.string(), limit: z.string(), secret: z.string(), arguments: z.string().optional(),
  git_branch: z.string().optional(), user_id: id.nullable(), integration_id: id.nullable(), schedule_id: id.nullable(),
  created: time, start: time.nullable(), end: time.nullable(), message: z.string(), commit_hash: z.string().nullable(),
  commit_message: z.string(), build_task_id: id.nullable(), version: z.string().nullable(), inventory_id: id.optional(),
  environment_ids: z.array(id).meta({ description: 'The variable groups the task ran with, in order (later ones override earlier ones)' }),
  params: z.record(z.string(), z.unknown()),
  waiting_for: z.union([
    z.object({ kind: z.literal('template'), task_id: id, limit: z.number().int().optional() }),
    z.object({ kind: z.literal('lock'), lock: z.string(), task_id: id }),
    z.object({ kind: z.literal('project'), running: z.number().int(), limit: z.number().int() }),
    z.object({ kind: z.literal('slots'), running: z.number().int(), limit: z.number().int() }),
    z.object({ kind: z.literal('runner'), tag: z.string().nullable() }),
  ]).optional().meta({ description: 'Only while the task waits, when it is known: what it waits for (its template\'s limit, a named lock, the project\'s or the server\'s limit, a runner)' }),
  executor_image: z.string().nullable().meta({ description: 'Signalbox: the container image the task ran in; null: on the host' }),
  priority: prioritySchema,
};
export const taskSchema = z.object(taskFields).meta({ id: 'Task' }) satisfies z.ZodType<Task>;

export const taskWithTemplateSchema = z.object({
  ...taskFields, tpl_playbook: z.string(), tpl_alias: z.string(), tpl_type: z.string(), tpl_app: z.string(),
  user_name: z.string().nullable(), build_task: taskSchema.nullable(),
}).meta({ id: 'TaskWithTemplate' }) satisfies z.ZodType<TaskWithTpl>;

export const apiTokenSchema = z.object({
  id: z.string(), name: z.string(), created: time, expired: z.boolean(), expires_at: time.nullable(), user_id: id,
  allow_write_operations: z.boolean().meta({ description: 'assistants on the MCP server (/api/mcp) may start, stop and approve with it' }),
}).meta({ id: 'ApiToken' }) satisfies z.ZodType<ApiToken>;

const boardTaskSchema = z.object({
  id, status: z.string(), user_name: z.string(), created: time, start: time.nullable(), end: time.nullable(),
  integration_id: id.nullable(), schedule_id: id.nullable(), build_task_id: id.nullable(),
});

export const boardSchema = z.object({
  by: z.enum(['template', 'view']), view_id: id.nullable(),
  projects: z.array(z.object({ id, name: z.string() })),
  tiles: z.array(z.object({
    kind: z.enum(['template', 'view']), id, name: z.string(), project_id: id, project_name: z.string(),
    task: boardTaskSchema.nullable(), estimate_ms: z.number().int().nullable(), fail_streak: z.number().int(), queued: z.number().int(),
  })),
}).meta({ id: 'Board' }) satisfies z.ZodType<BoardData>;

export const boardTokenSchema = z.object({
  id, prefix: z.string(), name: z.string(), project_ids: z.array(id), by: z.enum(['template', 'view']), view_id: id.nullable(),
  user_id: id, created: time, token: z.string().optional(),
}).meta({ id: 'BoardToken' }) satisfies z.ZodType<BoardToken>;

export const roleSchema = z.object({ role: z.string(), permissions: z.number().int() }).meta({ id: 'ProjectRole' });


const auditRowSchema = z.object({
  id: z.number().int(), seq: z.number().int().nullable(), created: z.string(), action: z.string(),
  actor_user_id: z.number().int().nullable(), actor_name: z.string(), actor_token: z.string().describe('the first 8 characters of the API token used'),
  client_ip: z.string(), user_agent: z.string(), project_id: z.number().int().nullable(), project_name: z.string(),
  object_type: z.string(), object_id: z.number().int().nullable(), object_name: z.string(),
  fields: z.string().describe('comma-separated names of the fields an update set (never values)'), description: z.string(), request: z.string(),
  object_url: z.string().nullable().describe('the console page of the object while it exists'),
}).meta({ id: 'AuditRow' });

export const auditPageSchema = z.object({ rows: z.array(auditRowSchema), next: z.number().int().nullable() }).meta({ id: 'AuditPage' });

export const auditBacklogSchema = z.object({
  sink: z.string(), delivered_seq: z.number().int(), pending: z.number().int(), last_error: z.string(), updated: z.string(),
}).meta({ id: 'AuditBacklog' });
