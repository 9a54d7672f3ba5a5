import { z } from 'zod';
import { projectInputSchema } from '../api/projects.routes.ts';
import { appInputSchema } from '../api/apps.routes.ts';
import { loginSchema } from '../api/auth.routes.ts';
import { memberAddSchema, memberRoleSchema } from '../api/project-users.routes.ts';
import { activeSchema } from '../api/schedules.routes.ts';
import { descriptionSchema } from '../api/templates.routes.ts';
import { tokenCreateSchema } from '../api/tokens.routes.ts';
import { boardQuerySchema, boardTokenCreateSchema } from '../domain/board/board.ts';
import { userOptionSchema } from '../domain/users/user-options.ts';
import { inviteInputSchema, inviteStatusSchema, inviteTokenSchema } from '../domain/invites/invite.ts';
import { cronCheckSchema, scheduleInputSchema } from '../domain/schedules/schedule.ts';
import { passwordSchema, userCreateSchema, userUpdateSchema } from '../domain/users/user.schema.ts';
import { reauthenticationSchema } from '../auth/reauthentication.ts';
import { totpConfirmSchema } from '../api/user-totp.routes.ts';
import { ldapLinkSchema } from '../api/identities.routes.ts';
import { viewInputSchema, viewPositionsSchema } from '../domain/views/view.ts';
import { lockInputSchema } from '../domain/locks/lock.ts';
import { roleInputSchema } from '../domain/roles/role.ts';
import { templateGrantsInputSchema } from '../domain/templates/template-grants.ts';
import { stopInputSchema, taskInputSchema } from '../domain/tasks/task.ts';
import { repositoryInputSchema } from '../domain/repositories/repository.ts';
import { runnerActiveSchema, runnerInputSchema } from '../domain/runners/runner.ts';
import { templateInputSchema } from '../domain/templates/template.ts';
import { extractValueInputSchema, integrationInputSchema, matcherInputSchema } from '../domain/integrations/integration.ts';
import { backupSchema } from '../domain/backup/backup.schema.ts';
import { environmentInputSchema } from '../domain/environments/environment.ts';
import { accessKeyInputSchema } from '../domain/keys/access-key.ts';
import { inventoryInputSchema } from '../domain/inventories/inventory.ts';
import { hostConfigInputSchema } from '../domain/host-configs/host-config.ts';
import { alertChannelInputSchema } from '../domain/alert-channels/alert-channel.ts';
import { eventWebhookInputSchema } from '../domain/event-webhooks/event-webhook.ts';
import { lastTasksQuerySchema, taskListQuerySchema } from '../domain/tasks/task-cursor.ts';
import { templatePageQuerySchema } from '../domain/templates/template-page.ts';
import { templateBulkSchema } from '../domain/templates/template-bulk.ts';
import { approvalDecisionSchema, runWorkflowSchema, workflowInputSchema } from '../domain/workflows/workflow.ts';
import {
  accessKeySchema, externalIdentitySchema, apiTokenSchema, boardSchema, boardTokenSchema, currentUserSchema, hostConfigSchema, inventorySchema, inventoryHostsSchema, inventorySyncSchema, hostDetailSchema, projectHostsSchema, projectSchema, repositorySchema, roleSchema,
  taskSchema, taskWithTemplateSchema, userSchema, viewSchema, lockSchema, projectRoleSchema, serverRoleSchema, templateGrantsSchema, secretStorageSchema, storageRefsSchema,
  auditPageSchema, auditBacklogSchema, alertChannelSchema, eventWebhookSchema, eventDeliverySchema, scheduleSchema, integrationSchema,
} from './response-schemas.ts';
import { secretStorageInputSchema } from '../domain/secret-storages/secret-storage.ts';

/** What the document says about one route beyond its method and path. */
export interface OperationDoc {
  summary: string;
  /** the JSON body the route validates (the same zod schema its handler reads) */
  body?: z.ZodType;
  /** the success body, when described */
  response?: z.ZodType;
  /** the success status; 204 means no body */
  status?: 200 | 201 | 204;
  /** the query words the route reads (each optional) */
  query?: z.ZodObject;
}

const list = (item: z.ZodType) => z.array(item);
const AUDIT_FILTERS = '?user= (id or name), ?action=, ?object_type=, ?project_id=, ?from= and ?to= (ISO dates), ?q= (words), ?before= (cursor)';
const P = '/api/project/:project_id';

/** The runner routes, the same under `/api/runners` and a project's `/runners`. */
function runnerOperations(base: string, what: string): Record<string, OperationDoc> {
  const one = `${base}/:runner_id`;
  return {
    [`POST ${base}`]: { summary: `Create a ${what}; its token and private key are answered once, here`, body: runnerInputSchema, status: 201 },
    [`PUT ${one}`]: { summary: `Change a ${what}`, body: runnerInputSchema, status: 204 },
    [`DELETE ${one}`]: { summary: `Delete a ${what}; its waiting tasks go back to the queue`, status: 204 },
    [`POST ${one}/active`]: { summary: `Switch a ${what} on or off`, body: runnerActiveSchema, status: 204 },
    [`DELETE ${one}/cache`]: { summary: `Ask a ${what} to clear its repository cache at its next contact`, status: 204 },
    [`POST ${one}/registration-token`]: { summary: `A one-time registration token for an unregistered ${what}` },
  };
}

/**
 * Routes by "METHOD /api/path" as Hono mounts them. A route missing here is still documented
 * (path, parameters, error answers); a key naming no mounted route fails the OpenAPI test.
 */
export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /api/ping': { summary: 'Liveness check; answers the text pong' },
  'GET /api/info': { summary: 'Server version and capabilities' },
  'GET /api/openapi.json': { summary: 'This document' },
  'GET /api/terraform/:alias': { summary: "Terraform/OpenTofu http backend (basic auth): the workspace's newest state; 204 when none" },
  'POST /api/terraform/:alias': { summary: 'Terraform/OpenTofu http backend (basic auth): store a state version (?ID= the lock held)' },
  'LOCK /api/terraform/:alias': { summary: "Terraform/OpenTofu http backend (basic auth): take the workspace's lock; 423 with the holder's lock info" },
  'UNLOCK /api/terraform/:alias': { summary: "Terraform/OpenTofu http backend (basic auth): release the workspace's lock" },
  'POST /api/auth/login': { summary: 'Sign in with login and password; sets the session cookie', body: loginSchema, status: 204 },
  'POST /api/auth/logout': { summary: 'Sign out', status: 204 },
  'GET /api/user': { summary: 'The signed-in user', response: currentUserSchema },
  'GET /api/user/tokens': { summary: 'Your API tokens', response: list(apiTokenSchema) },
  'POST /api/user/tokens': { summary: 'Create an API token (shown once)', body: tokenCreateSchema, response: apiTokenSchema, status: 201 },
  'DELETE /api/user/tokens/:token_id': { summary: 'Revoke an API token', status: 204 },
  'GET /api/board': { summary: 'The wall board: one tile per template or view (a session, an API token, or `?token=` a board token)', query: boardQuerySchema, response: boardSchema },
  'GET /api/board/tokens': { summary: 'Board tokens (all for admins, else your own)', response: list(boardTokenSchema) },
  'POST /api/board/tokens': { summary: 'Create a read-only board token (shown once)', body: boardTokenCreateSchema, response: boardTokenSchema, status: 201 },
  'DELETE /api/board/tokens/:board_token_id': { summary: 'Revoke a board token', status: 204 },
  'GET /api/user/options': { summary: 'Your stored options as {key: value}', response: z.record(z.string(), z.string()) },
  'POST /api/user/options': { summary: "Store one of your options (allowed keys: nav.unpinnedItems, nav.lastProject, nav.lastView.<project id>, ui.theme, ui.language; '' clears it)", body: userOptionSchema, response: userOptionSchema },
  'GET /api/users': { summary: 'Users (admins see every field)', response: list(z.union([userSchema, z.object({ id: z.number().int(), username: z.string(), name: z.string() })])) },
  'POST /api/users': { summary: 'Create a user (admin)', body: userCreateSchema, response: userSchema, status: 201 },
  'GET /api/users/:user_id': { summary: 'One user', response: userSchema },
  'PUT /api/users/:user_id': { summary: 'Update a user', body: userUpdateSchema, status: 204 },
  'DELETE /api/users/:user_id': { summary: 'Delete a user', status: 204 },
  'POST /api/users/:user_id/password': { summary: "Set a user's password (your own: with current_password or a TOTP passcode; ends your other sessions)", body: passwordSchema, status: 204 },
  'POST /api/users/:user_id/2fas/totp': { summary: 'Start two-factor enrolment: the otpauth URL and recovery code, shown once (your own: with current_password or a TOTP passcode); pending until confirmed', body: reauthenticationSchema, status: 201 },
  'POST /api/users/:user_id/2fas/totp/:totp_id/confirm': { summary: 'Confirm a pending two-factor enrolment with a code from the authenticator app; sign-in asks for codes from then on', body: totpConfirmSchema, status: 204 },
  'DELETE /api/users/:user_id/2fas/totp/:totp_id': { summary: 'Remove two-factor authentication (your own: with current_password or a TOTP passcode)', body: reauthenticationSchema, status: 204 },
  'GET /api/users/:user_id/identities': { summary: "A user's linked LDAP/OIDC identities (your own, or as an admin)", response: list(externalIdentitySchema) },
  'DELETE /api/users/:user_id/identities/:type/:provider': { summary: 'Unlink one identity (type ldap or oidc); 409 for the last identity of an external user', status: 204 },
  'POST /api/user/identities/ldap': { summary: 'Link your LDAP identity: binds with the directory password; the entry must have your username or email', body: ldapLinkSchema, status: 204 },
  'GET /api/projects': { summary: 'Projects you are a member of (admins: all)', response: list(projectSchema) },
  'POST /api/projects': { summary: 'Create a project', body: projectInputSchema, response: projectSchema, status: 201 },
  'POST /api/projects/restore': { summary: 'Create a project from a backup', body: backupSchema },
  [`GET ${P}`]: { summary: 'One project', response: projectSchema },
  [`PUT ${P}`]: { summary: 'Update a project', body: projectInputSchema, status: 204 },
  [`DELETE ${P}`]: { summary: 'Delete a project', status: 204 },
  [`GET ${P}/role`]: { summary: 'Your role in the project', response: roleSchema },
  [`POST ${P}/users`]: { summary: 'Add a member', body: memberAddSchema, status: 204 },
  [`PUT ${P}/users/:user_id`]: { summary: "Change a member's role", body: memberRoleSchema, status: 204 },
  [`POST ${P}/notifications/test`]: {
    summary: "Send a test alert through every enabled alert channel (email to members who asked for alerts, chats, webhook), with the project's alert chat; 409 while the project's alerts are off, 400 when no channel is enabled, 502 when none took it",
    response: z.object({ channels: list(z.object({ name: z.string(), ok: z.boolean(), error: z.string().optional() })) }),
  },
  [`GET ${P}/invites`]: { summary: 'Invitations to the project (?sort=created|status|role&order=asc|desc)' },
  [`POST ${P}/invites`]: { summary: 'Invite an email address or a user with a role (expires in 7 days unless expires_at); mailed when SMTP is set, the token answered once', body: inviteInputSchema, status: 201 },
  [`GET ${P}/invites/:invite_id`]: { summary: 'One invitation' },
  [`PUT ${P}/invites/:invite_id`]: { summary: 'Decline or expire an invitation', body: inviteStatusSchema, status: 204 },
  [`DELETE ${P}/invites/:invite_id`]: { summary: 'Delete an invitation', status: 204 },
  'POST /api/invites/accept': { summary: 'Accept an invitation with its token: you join the project with its role', body: inviteTokenSchema, status: 204 },
  'POST /api/invites/decline': { summary: 'Decline an invitation with its token', body: inviteTokenSchema, status: 204 },
  [`GET ${P}/keys`]: { summary: 'Key store entries (never their secrets)', response: list(accessKeySchema) },
  ...runnerOperations('/api/runners', 'global runner (admins)'),
  ...runnerOperations(`${P}/runners`, 'project runner'),
  [`POST ${P}/keys`]: { summary: 'Store a key', body: accessKeyInputSchema, response: accessKeySchema, status: 201 },
  [`GET ${P}/keys/:key_id`]: { summary: 'One key', response: accessKeySchema },
  [`PUT ${P}/keys/:key_id`]: { summary: 'Update a key', body: accessKeyInputSchema, status: 204 },
  [`GET ${P}/repositories`]: { summary: 'Repositories', response: list(repositorySchema) },
  [`POST ${P}/repositories`]: { summary: 'Add a repository', body: repositoryInputSchema, response: repositorySchema, status: 201 },
  [`GET ${P}/repositories/:repository_id`]: { summary: 'One repository', response: repositorySchema },
  [`PUT ${P}/repositories/:repository_id`]: { summary: 'Update a repository', body: repositoryInputSchema, status: 204 },
  [`GET ${P}/host_configs`]: { summary: 'Host configs: which SSH key reaches an SSH host or a git URL prefix', response: list(hostConfigSchema) },
  [`POST ${P}/host_configs`]: { summary: 'Add a host config', body: hostConfigInputSchema, response: hostConfigSchema, status: 201 },
  [`GET ${P}/host_configs/:host_config_id`]: { summary: 'One host config', response: hostConfigSchema },
  [`PUT ${P}/host_configs/:host_config_id`]: { summary: 'Update a host config', body: hostConfigInputSchema, status: 204 },
  [`DELETE ${P}/host_configs/:host_config_id`]: { summary: 'Delete a host config', status: 204 },
  [`GET ${P}/alert-channels`]: { summary: "The project's own alert channels (URLs and tokens are never returned: url_set, token_set)", response: list(alertChannelSchema) },
  [`POST ${P}/alert-channels`]: { summary: 'Add an alert channel (email, telegram, slack, rocketchat, microsoft_teams, dingtalk, gotify, webhook)', body: alertChannelInputSchema, response: alertChannelSchema, status: 201 },
  [`GET ${P}/alert-channels/:channel_id`]: { summary: 'One alert channel', response: alertChannelSchema },
  [`PUT ${P}/alert-channels/:channel_id`]: { summary: 'Update an alert channel (an empty url or token keeps the stored one)', body: alertChannelInputSchema, status: 204 },
  [`DELETE ${P}/alert-channels/:channel_id`]: { summary: 'Delete an alert channel (refused while a template sends its alerts only to it)', status: 204 },
  [`POST ${P}/alert-channels/:channel_id/test`]: {
    summary: 'Send a test alert through this channel now and say how it went ({ok, error})',
    response: z.object({ ok: z.boolean(), error: z.string().optional() }),
  },
  [`GET ${P}/event-webhooks`]: { summary: 'Outgoing event webhooks (owners and managers; the signing secret is never returned: secret_set)', response: list(eventWebhookSchema) },
  [`POST ${P}/event-webhooks`]: { summary: 'Add an event webhook: task_started, task_finished, approval_waiting, template_changed, signed with HMAC-SHA256', body: eventWebhookInputSchema, response: eventWebhookSchema, status: 201 },
  [`GET ${P}/event-webhooks/:webhook_id`]: { summary: 'One event webhook', response: eventWebhookSchema },
  [`PUT ${P}/event-webhooks/:webhook_id`]: { summary: 'Update an event webhook (an empty secret keeps the stored one)', body: eventWebhookInputSchema, status: 204 },
  [`DELETE ${P}/event-webhooks/:webhook_id`]: { summary: 'Delete an event webhook with its queue and deliveries log', status: 204 },
  [`GET ${P}/event-webhooks/:webhook_id/deliveries`]: { summary: 'The newest 200 delivery attempts, newest first', response: list(eventDeliverySchema) },
  [`GET ${P}/inventory`]: { summary: 'Inventories', response: list(inventorySchema) },
  [`POST ${P}/inventory`]: { summary: 'Add an inventory', body: inventoryInputSchema, response: inventorySchema, status: 201 },
  [`GET ${P}/inventory/:inventory_id`]: { summary: 'One inventory', response: inventorySchema },
  [`GET ${P}/hosts`]: {
    summary: 'Every host of the project\'s Ansible inventories with its groups, inventories, last result per template and last seen; ?q=, ?inventory_id=, ?result=, ?offset=, ?limit=',
    response: projectHostsSchema,
  },
  [`GET ${P}/hosts/:host`]: { summary: 'One host: its groups, inventories, last result per template and newest 20 runs (404 when no inventory lists it and no run recorded it)', response: hostDetailSchema },
  [`GET ${P}/inventory/:inventory_id/hosts`]: { summary: "The inventory's groups and hosts, as ansible-inventory --list reads them (400 with Ansible's message when it cannot)", response: inventoryHostsSchema },
  [`POST ${P}/inventory/:inventory_id/sync`]: { summary: 'Sync a url or script inventory from its source now (201 with the recorded sync, its error when the source failed)', response: inventorySyncSchema, status: 201 },
  [`GET ${P}/inventory/:inventory_id/syncs`]: { summary: "The inventory's newest 20 syncs, newest first", response: list(inventorySyncSchema) },
  [`PUT ${P}/inventory/:inventory_id`]: { summary: 'Update an inventory', body: inventoryInputSchema, status: 204 },
  [`POST ${P}/environment`]: { summary: 'Add a variable group', body: environmentInputSchema, status: 201 },
  [`PUT ${P}/environment/:environment_id`]: { summary: 'Update a variable group', body: environmentInputSchema, status: 204 },
  'POST /api/apps/:app_id': { summary: 'Save an app', body: appInputSchema, status: 204 },
  'PUT /api/apps/:app_id': { summary: 'Save an app', body: appInputSchema, status: 204 },
  [`GET ${P}/templates`]: {
    summary: "The project's templates; a search, page size or cursor pages them (X-Has-Next, X-Next-Cursor)", query: templatePageQuerySchema,
  },
  [`POST ${P}/templates`]: { summary: 'Create a template', body: templateInputSchema, status: 201 },
  [`PUT ${P}/templates/:template_id`]: { summary: 'Update a template', body: templateInputSchema, status: 204 },
  [`POST ${P}/templates/bulk`]: {
    summary: 'One action on up to 500 templates: run, move (to view_id; null: no view), disable, enable, delete. move/disable/enable change all or nothing; run and delete go one by one and report a refusal per template. Answers {results: [{template_id, name, ok, error?, code?, task_id?}]} (code: disabled, in_use)',
    body: templateBulkSchema,
  },
  [`GET ${P}/templates/:template_id/survey_options`]: { summary: 'Choices of the enum survey variables that read them from a URL (`values_url`), or why each has none, by variable name' },
  [`PUT ${P}/templates/:template_id/description`]: { summary: "Set a template's description", body: descriptionSchema, status: 204 },
  [`GET ${P}/templates/:template_id/grants`]: { summary: 'Signalbox: who may see or start the template (roles, members); none = every member who sees templates', response: templateGrantsSchema },
  [`PUT ${P}/templates/:template_id/grants`]: { summary: 'Signalbox: replace the template\'s grants; owners and admins always see and start it', body: templateGrantsInputSchema, response: templateGrantsSchema },
  [`GET ${P}/views/:view_id/grants`]: { summary: "Signalbox: who may see or start the view's templates (roles, members); a grant here counts on each template in the view", response: templateGrantsSchema },
  [`PUT ${P}/views/:view_id/grants`]: { summary: "Signalbox: replace the view's grants (the whole list; empty opens its templates again unless they have their own)", body: templateGrantsInputSchema, response: templateGrantsSchema },
  [`GET ${P}/roles`]: { summary: "Signalbox: the roles members may hold, Semaphore's four first, then the project's own", response: list(projectRoleSchema) },
  [`POST ${P}/roles`]: { summary: 'Signalbox: create a custom role (name, permission bits; slug made from the name when left out)', body: roleInputSchema, response: projectRoleSchema, status: 201 },
  [`GET ${P}/roles/:role_id`]: { summary: 'Signalbox: one custom role', response: projectRoleSchema },
  [`PUT ${P}/roles/:role_id`]: { summary: "Signalbox: rename a custom role or change its bits (its slug stays)", body: roleInputSchema, status: 204 },
  [`DELETE ${P}/roles/:role_id`]: { summary: 'Signalbox: delete a custom role no member or open invite holds', status: 204 },
  'GET /api/roles': { summary: 'Signalbox (admins): the server-wide roles every project\'s members may hold', response: list(serverRoleSchema) },
  'POST /api/roles': { summary: 'Signalbox (admins): define a server-wide role (name, permission bits; slug made from the name when left out)', body: roleInputSchema, response: serverRoleSchema, status: 201 },
  'GET /api/roles/:role_id': { summary: 'Signalbox (admins): one server-wide role', response: serverRoleSchema },
  'PUT /api/roles/:role_id': { summary: 'Signalbox (admins): rename a server-wide role or change its bits (its slug stays)', body: roleInputSchema, status: 204 },
  'DELETE /api/roles/:role_id': { summary: 'Signalbox (admins): delete a server-wide role no member or open invite holds; its grants go with it', status: 204 },
  [`GET ${P}/locks`]: { summary: "Signalbox: the project's named locks, with their holders and waiting tasks", response: list(lockSchema) },
  [`POST ${P}/locks`]: { summary: 'Signalbox: create a lock (name, capacity: how many tasks hold it at once)', body: lockInputSchema, response: lockSchema, status: 201 },
  [`GET ${P}/locks/:lock_id`]: { summary: 'Signalbox: one lock', response: lockSchema },
  [`PUT ${P}/locks/:lock_id`]: { summary: 'Signalbox: rename a lock or change its capacity', body: lockInputSchema, status: 204 },
  [`DELETE ${P}/locks/:lock_id`]: { summary: 'Signalbox: delete a lock no template needs', status: 204 },
  [`GET ${P}/views`]: { summary: 'Views (template tabs)', response: list(viewSchema) },
  [`POST ${P}/views`]: { summary: 'Create a view', body: viewInputSchema, response: viewSchema, status: 201 },
  [`POST ${P}/views/positions`]: { summary: 'Reorder views', body: viewPositionsSchema, status: 204 },
  [`GET ${P}/views/:view_id`]: { summary: 'One view', response: viewSchema },
  [`PUT ${P}/views/:view_id`]: { summary: 'Update a view', body: viewInputSchema, status: 204 },
  [`GET ${P}/schedules`]: { summary: "The project's schedules (of templates the caller sees)", response: list(scheduleSchema) },
  [`POST ${P}/schedules`]: { summary: 'Create a schedule (it acts for its maker)', body: scheduleInputSchema, response: scheduleSchema, status: 201 },
  [`GET ${P}/schedules/:schedule_id`]: { summary: 'One schedule', response: scheduleSchema },
  [`POST ${P}/schedules/validate`]: { summary: 'Check a cron expression', body: cronCheckSchema },
  [`PUT ${P}/schedules/:schedule_id`]: { summary: 'Update a schedule', body: scheduleInputSchema, status: 204 },
  [`PUT ${P}/schedules/:schedule_id/active`]: { summary: 'Switch a schedule on or off', body: activeSchema, status: 204 },
  [`GET ${P}/workflows`]: { summary: "The project's workflows (Semaphore's WorkflowTemplate: nodes and edges)" },
  [`POST ${P}/workflows`]: { summary: 'Create a workflow; the graph is checked first (a 400 names the node)', body: workflowInputSchema, status: 201 },
  [`POST ${P}/workflows/validate`]: { summary: "The server's checks on an unsaved graph, as a list of problems (the editor's Problems panel)", body: workflowInputSchema.partial({ name: true }) },
  [`GET ${P}/workflows/:workflow_id`]: { summary: 'One workflow with its nodes and edges' },
  [`PUT ${P}/workflows/:workflow_id`]: { summary: 'Update a workflow; a changed graph makes a new version', body: workflowInputSchema, status: 204 },
  [`DELETE ${P}/workflows/:workflow_id`]: { summary: 'Delete a workflow with its runs (refused while a run is active)', status: 204 },
  [`GET ${P}/workflows/:workflow_id/versions`]: { summary: 'Versions of the workflow, newest first (`count` limits them)' },
  [`GET ${P}/workflows/:workflow_id/versions/:version_number`]: { summary: 'One version with its definition' },
  [`POST ${P}/workflows/:workflow_id/run`]: { summary: 'Start a run of the workflow', body: runWorkflowSchema, status: 201 },
  [`GET ${P}/workflows/:workflow_id/runs`]: { summary: 'Runs of the workflow, newest first' },
  [`GET ${P}/workflows/:workflow_id/runs/:run_id`]: { summary: 'A run with every node: its task, approval and state; the run history' },
  [`POST ${P}/workflows/:workflow_id/runs/:run_id/stop`]: { summary: 'Stop a run: tasks stopped, approvals rejected, delays cancelled', status: 204 },
  [`GET ${P}/workflows/:workflow_id/runs/:run_id/approvals`]: { summary: "The run's approvals" },
  [`POST ${P}/workflows/:workflow_id/runs/:run_id/approvals/:node_id`]: { summary: 'Approve or reject the approval waiting at a node', body: approvalDecisionSchema },
  [`GET ${P}/workflows/:workflow_id/runs/:run_id/artifacts`]: { summary: 'The outputs of every task of the run, merged' },
  [`GET ${P}/tasks/:task_id/outputs`]: { summary: 'The outputs a workflow task produced, and what was not captured' },
  [`GET ${P}/integrations`]: { summary: "The project's integrations", response: list(integrationSchema) },
  [`POST ${P}/integrations`]: { summary: 'Create an integration (it acts for its maker)', body: integrationInputSchema, response: integrationSchema, status: 201 },
  [`GET ${P}/integrations/:integration_id`]: { summary: 'One integration', response: integrationSchema },
  [`PUT ${P}/integrations/:integration_id`]: { summary: 'Update an integration', body: integrationInputSchema, status: 204 },
  [`POST ${P}/integrations/:integration_id/matchers`]: { summary: 'Add a matcher', body: matcherInputSchema },
  [`PUT ${P}/integrations/:integration_id/matchers/:matcher_id`]: { summary: 'Update a matcher', body: matcherInputSchema, status: 204 },
  [`POST ${P}/integrations/:integration_id/values`]: { summary: 'Add an extracted value', body: extractValueInputSchema, status: 201 },
  [`PUT ${P}/integrations/:integration_id/values/:value_id`]: { summary: 'Update an extracted value', body: extractValueInputSchema, status: 204 },
  [`GET ${P}/tasks`]: {
    summary: "The project's tasks, newest first; a cursor or filter pages them (X-Has-Next, X-Has-Prev)", response: list(taskWithTemplateSchema), query: taskListQuerySchema,
  },
  [`GET ${P}/tasks/last`]: { summary: 'The latest tasks, newest first, a page at a time (count, before; X-Has-Next)', response: list(taskWithTemplateSchema), query: lastTasksQuerySchema },
  [`POST ${P}/tasks`]: { summary: 'Start a task: by template_id, or by template_name (unique per project); environment_ids when the template has task_params.allow_override_environment', body: taskInputSchema, response: taskSchema, status: 201 },
  [`GET ${P}/tasks/:task_id`]: { summary: 'One task', response: taskSchema },
  [`GET ${P}/tasks/:task_id/output/search`]: {
    summary: 'Search the whole log: lines containing ?q= (case-insensitive text, at most 200 characters) with their line numbers; ?limit= 1..1000 (100)',
    response: z.object({ matches: list(z.object({ line: z.number().int(), time: z.string(), output: z.string() })), more: z.boolean() }),
  },
  [`GET ${P}/tasks/:task_id/output/download`]: { summary: 'The log as a text file (task-<id>.log, without ANSI codes; secrets stay masked)' },
  [`POST ${P}/tasks/:task_id/relaunch_failed`]: { summary: "Relaunch a finished Ansible task on the hosts its PLAY RECAP counted failed or unreachable: a new task with the same values, limited to them", response: taskSchema, status: 201 },
  [`POST ${P}/tasks/:task_id/stop`]: { summary: 'Stop a task (force: kill it)', body: stopInputSchema, status: 204 },
  [`POST ${P}/templates/:template_id/stop_all_tasks`]: { summary: "Stop every task of a template", body: stopInputSchema, status: 204 },
  [`GET ${P}/secret_storages`]: { summary: 'External secret storages (HashiCorp Vault, OpenBao; KV version 2)', response: list(secretStorageSchema) },
  [`POST ${P}/secret_storages`]: { summary: 'Add a secret storage; `secret` (token or AppRole secret id) is write-only', body: secretStorageInputSchema, response: secretStorageSchema, status: 201 },
  [`GET ${P}/secret_storages/:storage_id`]: { summary: 'One secret storage', response: secretStorageSchema },
  [`PUT ${P}/secret_storages/:storage_id`]: { summary: 'Change a secret storage (an empty secret keeps the stored one)', body: secretStorageInputSchema, status: 204 },
  [`DELETE ${P}/secret_storages/:storage_id`]: { summary: 'Delete a secret storage no key or secret reads from', status: 204 },
  [`GET ${P}/secret_storages/:storage_id/refs`]: { summary: 'Keys and variable-group secrets that read from the storage', response: storageRefsSchema },
  [`POST ${P}/secret_storages/:storage_id/test`]: { summary: 'Sign in to the storage now and say how it went ({ok, error})' },
  'GET /.well-known/jwks.json': { summary: 'Public keys that sign task identity tokens (404 while jwt.enabled is off)' },
  'GET /.well-known/openid-configuration': { summary: 'OIDC discovery document for task identity tokens (404 while jwt.enabled is off)' },
  ['GET /api/audit']: { summary: `The audit trail (admins), newest first: ${AUDIT_FILTERS}; ?limit= 1..500 (50); \`next\` is the cursor of the next page`, response: auditPageSchema },
  ['GET /api/audit/export']: { summary: `The filtered audit trail as a streamed download: ?format=csv (default) or jsonl; ${AUDIT_FILTERS}` },
  ['GET /api/audit/backlog']: { summary: 'Per enabled export sink (file, syslog, webhook): the last sequence number delivered, the rows still waiting, the last error', response: list(auditBacklogSchema) },
  [`GET ${P}/audit`]: { summary: `The project's audit trail (owners and admins): ${AUDIT_FILTERS}; ?limit= 1..500 (50)`, response: auditPageSchema },
  [`GET ${P}/audit/export`]: { summary: `The project's filtered audit trail as a streamed download: ?format=csv or jsonl; ${AUDIT_FILTERS}` },
};
