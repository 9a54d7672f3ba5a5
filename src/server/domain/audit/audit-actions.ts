/**
 * Audit actions by route. A route not listed takes its action from its method (POST create,
 * PUT/PATCH update, DELETE delete) and its object type from its path; listed routes name what
 * they really do. Requests in NOT_AUDITED change nothing a person did (a validation dry run, a
 * runner's progress report: the task changes it reports are recorded by the engine).
 */
const ROUTE_ACTIONS: Record<string, { action: string; object?: string }> = {
  'POST /api/auth/login': { action: 'login_success', object: 'user' },
  'POST /api/auth/verify': { action: 'mfa_success', object: 'user' },
  'POST /api/auth/recovery': { action: 'mfa_recovery', object: 'user' },
  'POST /api/auth/logout': { action: 'logout', object: 'user' },
  'POST /api/user/tokens': { action: 'token_create', object: 'token' },
  'DELETE /api/user/tokens/:token_id': { action: 'token_delete', object: 'token' },
  'POST /api/board/tokens': { action: 'token_create', object: 'board_token' },
  'DELETE /api/board/tokens/:board_token_id': { action: 'token_delete', object: 'board_token' },
  'DELETE /api/user/sessions/:session_id': { action: 'session_delete', object: 'session' },
  'POST /api/users/:user_id/2fas/totp': { action: 'mfa_enable', object: 'user' },
  'POST /api/users/:user_id/2fas/totp/:totp_id/confirm': { action: 'mfa_confirm', object: 'user' },
  'DELETE /api/users/:user_id/2fas/totp/:totp_id': { action: 'mfa_disable', object: 'user' },
  'POST /api/users/:user_id/password': { action: 'password_change', object: 'user' },
  'POST /api/projects/restore': { action: 'restore', object: 'project' },
  'DELETE /api/project/:project_id/cache': { action: 'cache_clear', object: 'project' },
  'DELETE /api/project/:project_id/me': { action: 'leave', object: 'project' },
  'POST /api/project/:project_id/tasks': { action: 'task_start', object: 'task' },
  'POST /api/project/:project_id/tasks/:task_id/relaunch_failed': { action: 'task_start', object: 'task' },
  'POST /api/project/:project_id/tasks/:task_id/stop': { action: 'task_stop', object: 'task' },
  'POST /api/project/:project_id/tasks/:task_id/confirm': { action: 'task_confirm', object: 'task' },
  'POST /api/project/:project_id/tasks/:task_id/reject': { action: 'task_reject', object: 'task' },
  'POST /api/project/:project_id/templates/:template_id/stop_all_tasks': { action: 'task_stop', object: 'template' },
  'POST /api/project/:project_id/templates/:template_id/inventory/:inventory_id/:action{set_default|attach|detach}': { action: 'update', object: 'template' },
  'POST /api/project/:project_id/views/positions': { action: 'update', object: 'view' },
  'PUT /api/project/:project_id/templates/:template_id/description': { action: 'update', object: 'template' },
  // one row per template (run: per task started), each naming its own action
  'POST /api/project/:project_id/templates/bulk': { action: 'update', object: 'template' },
  'POST /api/apps/:app_id/active': { action: 'update', object: 'app' },
  'PUT /api/project/:project_id/schedules/:schedule_id/active': { action: 'update', object: 'schedule' },
  'POST /api/project/:project_id/runners/:runner_id/active': { action: 'update', object: 'runner' },
  'POST /api/runners/:runner_id/active': { action: 'update', object: 'runner' },
  'POST /api/project/:project_id/runners/:runner_id/registration-token': { action: 'token_create', object: 'runner' },
  'POST /api/runners/:runner_id/registration-token': { action: 'token_create', object: 'runner' },
  'DELETE /api/project/:project_id/runners/:runner_id/cache': { action: 'cache_clear', object: 'runner' },
  'DELETE /api/runners/:runner_id/cache': { action: 'cache_clear', object: 'runner' },
  'POST /api/retention/purge': { action: 'purge', object: 'retention' },
  'POST /api/project/:project_id/workflows/:workflow_id/run': { action: 'workflow_start', object: 'workflow' },
  'POST /api/project/:project_id/workflows/:workflow_id/runs/:run_id/stop': { action: 'workflow_stop', object: 'workflow' },
  'POST /api/project/:project_id/workflows/:workflow_id/runs/:run_id/approvals/:node_id': { action: 'approval_decision', object: 'workflow' },
  'POST /api/integrations/:alias': { action: 'webhook', object: 'integration' },
  'POST /api/terraform/:alias': { action: 'update', object: 'terraform_state' },
  'LOCK /api/terraform/:alias': { action: 'lock', object: 'terraform_state' },
  'UNLOCK /api/terraform/:alias': { action: 'unlock', object: 'terraform_state' },
  'POST /api/internal/runners': { action: 'create', object: 'runner' },
  'DELETE /api/internal/runners': { action: 'delete', object: 'runner' },
};

/** Requests that are not audited although their method could change state. */
export const NOT_AUDITED = new Set([
  'POST /api/project/:project_id/schedules/validate',
  // the editor's Problems list: a graph checked, nothing stored
  'POST /api/project/:project_id/workflows/validate',
  // signs in to the storage and says how it went; nothing is stored
  'POST /api/project/:project_id/secret_storages/:storage_id/test',
  // sends one test alert through the channel and says how it went; nothing is stored
  'POST /api/project/:project_id/alert-channels/:channel_id/test',
  'PUT /api/internal/runners',
]);

const METHOD_ACTIONS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/** Path segments → object types ("keys" → "key"). */
const SEGMENT_TYPES: Record<string, string> = {
  keys: 'key', host_configs: 'host_config', 'alert-channels': 'alert_channel', 'event-webhooks': 'event_webhook', repositories: 'repository', inventory: 'inventory', environment: 'environment',
  templates: 'template', views: 'view', locks: 'lock', roles: 'role', schedules: 'schedule', integrations: 'integration', matchers: 'integration_matcher',
  values: 'integration_extract_value', aliases: 'integration_alias', tasks: 'task', runners: 'runner', users: 'user',
  projects: 'project', project: 'project', apps: 'app', tokens: 'token', sessions: 'session', states: 'terraform_state',
};

/** True for a request that may change state (and so must leave an audit row when it succeeds). */
export function isStateChanging(method: string, route: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && !NOT_AUDITED.has(route);
}

/**
 * The action and object type recorded for a route.
 * @example routeAction('POST /api/project/:project_id/keys') // { action: 'create', object: 'key' }
 */
export function routeAction(route: string): { action: string; object: string } {
  let known = routeActions.get(route);
  if (!known) {
    known = actionOfRoute(route);
    // routes are a fixed set of patterns; a path no route matched may be anything
    if (routeActions.size < MAX_REMEMBERED_ROUTES) routeActions.set(route, known);
  }
  return { ...known };
}

const MAX_REMEMBERED_ROUTES = 2000;
const routeActions = new Map<string, { action: string; object: string }>();

function actionOfRoute(route: string): { action: string; object: string } {
  const listed = ROUTE_ACTIONS[route];
  const [method = '', path = ''] = route.split(' ');
  const segments = path.split('/').filter((s) => s && !s.startsWith(':') && s !== 'api');
  const object = segments.reverse().map((s) => SEGMENT_TYPES[s]).find(Boolean) ?? segments[0] ?? '';
  return { action: listed?.action ?? METHOD_ACTIONS[method] ?? method.toLowerCase(), object: listed?.object ?? object };
}

/** The id a route's URL names for its object: the last numeric parameter. */
export function routeObjectId(params: Record<string, string>): number | null {
  const values = Object.entries(params).filter(([name]) => name !== 'project_id').map(([, v]) => v);
  for (let i = values.length - 1; i >= 0; i--) if (/^\d+$/.test(values[i]!)) return Number(values[i]);
  return null;
}

/** An action from an event's description, for changes the server makes on its own. */
export function actionOfDescription(description: string): string {
  const words = description.toLowerCase();
  if (/\bcreated\b|\badded\b/.test(words)) return 'create';
  if (/\bdeleted\b|\bremoved\b/.test(words)) return 'delete';
  if (/\bstarted\b|\bqueued\b/.test(words)) return 'task_start';
  if (/\bstopped\b/.test(words)) return 'task_stop';
  return 'update';
}
