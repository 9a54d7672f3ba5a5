import { Permission } from './permissions.ts';

const { RunTasks, UpdateProject, ManageResources, ManageUsers, EditInventories, EditEnvironments, ManageKeys, ManageSchedules, ApproveGates, ReadAudit } = Permission;

const P = '/api/project/:project_id';

/** Every verb of a resource's write routes: create, change, delete. */
function crud(path: string, id: string, bit: number): [string, number][] {
  return [[`POST ${P}/${path}`, bit], [`PUT ${P}/${path}/:${id}`, bit], [`DELETE ${P}/${path}/:${id}`, bit]];
}

/**
 * Which bit each project route needs ("METHOD /api/path/:param", as the router names it). The
 * one table read by the project routes' guard (auth/project-scope.ts), the console's menus and
 * the generated permission tests; a project route not listed here is open to every member.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, number>> = Object.fromEntries([
  ...crud('users', 'user_id', ManageUsers),
  [`GET ${P}/invites`, ManageUsers], [`GET ${P}/invites/:invite_id`, ManageUsers], ...crud('invites', 'invite_id', ManageUsers),
  [`GET ${P}/audit`, ReadAudit], [`GET ${P}/audit/export`, ReadAudit],
  [`PUT ${P}`, UpdateProject], [`DELETE ${P}`, UpdateProject], [`DELETE ${P}/cache`, UpdateProject], [`POST ${P}/notifications/test`, UpdateProject],
  ...crud('roles', 'role_id', ManageUsers),
  ...crud('keys', 'key_id', ManageKeys),
  ...crud('host_configs', 'host_config_id', ManageResources),
  ...crud('alert-channels', 'channel_id', ManageResources), [`POST ${P}/alert-channels/:channel_id/test`, ManageResources],
  [`GET ${P}/event-webhooks`, ManageResources], [`GET ${P}/event-webhooks/:webhook_id`, ManageResources],
  [`GET ${P}/event-webhooks/:webhook_id/deliveries`, ManageResources], ...crud('event-webhooks', 'webhook_id', ManageResources),
  ...crud('repositories', 'repository_id', ManageResources),
  ...crud('inventory/:inventory_id/terraform/aliases', 'alias_id', EditInventories),
  [`GET ${P}/inventory/:inventory_id/terraform/states/latest`, EditInventories],
  [`GET ${P}/inventory/:inventory_id/terraform/states/:state_id`, EditInventories],
  [`DELETE ${P}/inventory/:inventory_id/terraform/states/:state_id`, EditInventories],
  ...crud('inventory', 'inventory_id', EditInventories),
  [`POST ${P}/inventory/:inventory_id/sync`, RunTasks],
  ...crud('environment', 'environment_id', EditEnvironments),
  ...crud('templates', 'template_id', ManageResources), [`PUT ${P}/templates/:template_id/description`, ManageResources],
  [`GET ${P}/templates/:template_id/grants`, ManageResources], [`PUT ${P}/templates/:template_id/grants`, ManageResources],
  [`POST ${P}/templates/:template_id/inventory/:inventory_id/:action{set_default|attach|detach}`, ManageResources],
  ...crud('views', 'view_id', ManageResources), [`POST ${P}/views/positions`, ManageResources],
  [`GET ${P}/views/:view_id/grants`, ManageResources], [`PUT ${P}/views/:view_id/grants`, ManageResources],
  ...crud('locks', 'lock_id', ManageResources),
  ...crud('schedules', 'schedule_id', ManageSchedules), [`POST ${P}/schedules/validate`, ManageSchedules], [`PUT ${P}/schedules/:schedule_id/active`, ManageSchedules],
  ...crud('workflows', 'workflow_id', ManageResources), [`POST ${P}/workflows/validate`, ManageResources],
  [`POST ${P}/workflows/:workflow_id/run`, RunTasks], [`POST ${P}/workflows/:workflow_id/runs/:run_id/stop`, RunTasks],
  [`POST ${P}/workflows/:workflow_id/runs/:run_id/approvals/:node_id`, ApproveGates],
  [`GET ${P}/integrations/aliases`, ManageResources], [`POST ${P}/integrations/aliases`, ManageResources], [`DELETE ${P}/integrations/aliases/:alias_id`, ManageResources],
  ...crud('integrations', 'integration_id', ManageResources),
  ...crud('integrations/:integration_id/matchers', 'matcher_id', ManageResources),
  ...crud('integrations/:integration_id/values', 'value_id', ManageResources),
  [`GET ${P}/integrations/:integration_id/aliases`, ManageResources], [`POST ${P}/integrations/:integration_id/aliases`, ManageResources],
  [`DELETE ${P}/integrations/:integration_id/aliases/:alias_id`, ManageResources],
  [`GET ${P}/backup`, ManageResources],
  [`POST ${P}/tasks`, RunTasks], [`POST ${P}/tasks/:task_id/relaunch_failed`, RunTasks], [`POST ${P}/tasks/:task_id/stop`, RunTasks],
  [`POST ${P}/tasks/:task_id/confirm`, RunTasks], [`POST ${P}/tasks/:task_id/reject`, RunTasks], [`POST ${P}/templates/:template_id/stop_all_tasks`, RunTasks],
  ...crud('runners', 'runner_id', ManageResources), [`POST ${P}/runners/:runner_id/active`, ManageResources],
  [`POST ${P}/runners/:runner_id/registration-token`, ManageResources], [`DELETE ${P}/runners/:runner_id/cache`, ManageResources],
  ...crud('secret_storages', 'storage_id', ManageResources), [`POST ${P}/secret_storages/:storage_id/test`, ManageResources],
]);

/** The bit a route needs, or 0 when every member may call it. */
export function routePermission(route: string): number {
  return Object.hasOwn(ROUTE_PERMISSIONS, route) ? ROUTE_PERMISSIONS[route]! : 0;
}
