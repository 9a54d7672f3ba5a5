import { Hono } from 'hono';
import type { AppEnv } from './http/context.ts';
import type { Deps } from './deps.ts';
import { handleError } from './http/errors.ts';
import { refuseForeignWrites } from './http/request-safety.ts';
import { compressResponse } from './http/compression.ts';
import { handOverObjects } from './http/object-handover.ts';
import { authenticate } from './auth/authenticate.ts';
import { auditRequests } from './api/audit-request.ts';
import { projectRouteGuard, projectScope } from './auth/project-scope.ts';
import { authRoutes } from './api/auth.routes.ts';
import { oidcRoutes } from './api/oidc.routes.ts';
import { systemRoutes } from './api/system.routes.ts';
import { userRoutes } from './api/user.routes.ts';
import { myIdentitiesRoutes, userIdentitiesRoutes } from './api/identities.routes.ts';
import { userOptionsRoutes } from './api/user-options.routes.ts';
import { projectsRoutes } from './api/projects.routes.ts';
import { projectRoutes } from './api/project.routes.ts';
import { keysRoutes } from './api/keys.routes.ts';
import { alertChannelsRoutes } from './api/alert-channels.routes.ts';
import { eventWebhooksRoutes } from './api/event-webhooks.routes.ts';
import { hostConfigsRoutes } from './api/host-configs.routes.ts';
import { repositoriesRoutes } from './api/repositories.routes.ts';
import { inventoryRoutes } from './api/inventory.routes.ts';
import { hostsRoutes } from './api/hosts.routes.ts';
import { environmentRoutes } from './api/environment.routes.ts';
import { appsRoutes } from './api/apps.routes.ts';
import { tokensRoutes } from './api/tokens.routes.ts';
import { usersRoutes } from './api/users.routes.ts';
import { userTotpRoutes } from './api/user-totp.routes.ts';
import { sessionsRoutes } from './api/sessions.routes.ts';
import { eventsRoutes, projectEventsRoutes } from './api/events.routes.ts';
import { projectUsersRoutes } from './api/project-users.routes.ts';
import { inviteAnswerRoutes, projectInvitesRoutes } from './api/invites.routes.ts';
import { integrationWebhookRoutes } from './api/integration-webhook.routes.ts';
import { integrationDeliveriesRoutes } from './api/integration-deliveries.routes.ts';
import { templatesRoutes } from './api/templates.routes.ts';
import { viewsRoutes } from './api/views.routes.ts';
import { rolesRoutes } from './api/roles.routes.ts';
import { serverRolesRoutes } from './api/server-roles.routes.ts';
import { locksRoutes } from './api/locks.routes.ts';
import { schedulesRoutes } from './api/schedules.routes.ts';
import { projectApprovalsRoutes, workflowsRoutes } from './api/workflows.routes.ts';
import { integrationsRoutes } from './api/integrations.routes.ts';
import { statsRoutes } from './api/stats.routes.ts';
import { backupRoutes } from './api/backup.routes.ts';
import { restoreRoutes } from './api/restore.routes.ts';
import { tasksRoutes } from './api/tasks.routes.ts';
import { activeTasksRoutes } from './api/active-tasks.routes.ts';
import { terraformStateBackendRoutes } from './api/terraform-state-backend.routes.ts';
import { terraformInventoryRoutes } from './api/terraform-inventory.routes.ts';
import { countRequests, serveMetrics } from './api/metrics.routes.ts';
import { retentionRoutes } from './api/retention.routes.ts';
import { globalRunnerTagsRoutes, projectRunnerTagsRoutes } from './api/runner-tags.routes.ts';
import { globalRunnersRoutes, projectRunnersRoutes } from './api/runners.routes.ts';
import { internalRunnerRoutes } from './api/internal-runners.routes.ts';
import { secretStoragesRoutes } from './api/secret-storages.routes.ts';
import { wellKnownRoutes } from './api/well-known.routes.ts';
import { taskSummaryRoutes } from './api/task-summary.routes.ts';
import { auditRoutes, projectAuditRoutes } from './api/audit.routes.ts';
import { boardRoutes, boardTokensRoutes } from './api/board.routes.ts';
import { servedFeatures, type PremiumFeatures } from './system/premium-features.ts';
import { buildOpenApiDocument } from './openapi/openapi-document.ts';
import { limitApiBodies } from './http/body-limits.ts';
import { throttleDeliverySenders } from './integrations/sender-throttle.ts';
import { mcpEndpoint } from './mcp/mcp-endpoint.ts';

/**
 * The runner API: every route under `/api`, with the error contract and auth in one place.
 * @example const api = createApi(deps); await api.request('/api/ping');
 */
export function createApi(deps: Deps): Hono<AppEnv> {
  const api = new Hono<AppEnv>({ strict: false });
  // first, so that it sees the answer every later middleware and the error handler settled on
  api.use('*', handOverObjects());
  if (deps.metrics) api.use('*', countRequests(deps.metrics));
  // known once every route is mounted (below); read by `/api/info`
  let premiumFeatures: PremiumFeatures | undefined;
  api.use('*', async function compress(c, next) {
    await next();
    const compressed = await compressResponse(c.req.raw, c.res);
    // Assigning over a response merges the old one's headers (its length) into the new one.
    c.res = undefined;
    c.res = compressed;
  });
  api.use('*', async function provideDeps(c, next) {
    c.set('deps', deps);
    c.set('premiumFeatures', premiumFeatures!);
    await next();
    if (!c.res.headers.get('content-type') && c.req.path !== '/api/ping') c.res.headers.set('content-type', 'application/json');
  });
  api.use('*', auditRequests());
  api.use('*', limitApiBodies());
  api.use('*', refuseForeignWrites());

  api.route('/api', systemRoutes);
  api.get('/api/metrics', serveMetrics);
  api.route('/api/auth/oidc', oidcRoutes);
  // built on first request, when the route table below is complete
  let openApi: object | undefined;
  api.get('/api/openapi.json', (c) => c.json(openApi ??= buildOpenApiDocument(api.routes)));
  api.route('/api/auth', authRoutes);
  // a burst from one sender is refused before its deliveries are looked up or recorded
  api.use('/api/integrations/*', throttleDeliverySenders());
  api.route('/api/integrations', integrationWebhookRoutes);
  api.route('/api/terraform', terraformStateBackendRoutes);
  // runners authenticate with X-Runner-Token, not a session
  api.route('/api/internal/runners', internalRunnerRoutes);
  // task token verifiers (Vault, clouds) look for the keys outside /api, where OIDC puts them
  api.route('/.well-known', wellKnownRoutes);

  // assistants: tools that call the routes below in-process, as the token's user
  api.all('/api/mcp', mcpEndpoint((request, env) => api.fetch(request, env)));

  // the wall board answers a board token (`?token=`) as well as a session; nothing else does
  api.route('/api/board', boardRoutes);

  const secured = new Hono<AppEnv>({ strict: false });
  secured.use('*', authenticate());
  secured.route('/user/tokens', tokensRoutes);
  secured.route('/board/tokens', boardTokensRoutes);
  secured.route('/user/sessions', sessionsRoutes);
  secured.route('/user/options', userOptionsRoutes);
  secured.route('/user/identities', myIdentitiesRoutes);
  secured.route('/user', userRoutes);
  secured.route('/users/:user_id/2fas/totp', userTotpRoutes);
  secured.route('/users/:user_id/identities', userIdentitiesRoutes);
  secured.route('/users', usersRoutes);
  secured.route('/projects/restore', restoreRoutes);
  secured.route('/projects', projectsRoutes);
  secured.route('/events', eventsRoutes);
  secured.route('/audit', auditRoutes);
  secured.route('/roles', serverRolesRoutes);
  secured.use('/project/:project_id/*', projectScope(), projectRouteGuard());
  secured.use('/project/:project_id', projectScope(), projectRouteGuard());
  secured.route('/project/:project_id/users', projectUsersRoutes);
  secured.route('/project/:project_id/invites', projectInvitesRoutes);
  secured.route('/invites', inviteAnswerRoutes);
  secured.route('/project/:project_id/events', projectEventsRoutes);
  secured.route('/project/:project_id/audit', projectAuditRoutes);
  secured.route('/project/:project_id', projectRoutes);
  secured.route('/project/:project_id/keys', keysRoutes);
  secured.route('/project/:project_id/host_configs', hostConfigsRoutes);
  secured.route('/project/:project_id/alert-channels', alertChannelsRoutes);
  secured.route('/project/:project_id/event-webhooks', eventWebhooksRoutes);
  secured.route('/project/:project_id/repositories', repositoriesRoutes);
  secured.route('/project/:project_id/inventory/:inventory_id/terraform', terraformInventoryRoutes);
  secured.route('/project/:project_id/inventory', inventoryRoutes);
  secured.route('/project/:project_id/hosts', hostsRoutes);
  secured.route('/project/:project_id/environment', environmentRoutes);
  secured.route('/apps', appsRoutes);
  secured.route('/project/:project_id/integrations/:integration_id/deliveries', integrationDeliveriesRoutes);
  secured.route('/project/:project_id/templates', templatesRoutes);
  secured.route('/project/:project_id/views', viewsRoutes);
  secured.route('/project/:project_id/locks', locksRoutes);
  secured.route('/project/:project_id/roles', rolesRoutes);
  secured.route('/project/:project_id/schedules', schedulesRoutes);
  secured.route('/project/:project_id/workflows', workflowsRoutes);
  secured.route('/project/:project_id/approvals', projectApprovalsRoutes);
  secured.route('/project/:project_id/integrations', integrationsRoutes);
  secured.route('/project/:project_id/stats', statsRoutes);
  secured.route('/project/:project_id/backup', backupRoutes);
  secured.route('/project/:project_id', tasksRoutes);
  secured.route('/project/:project_id', taskSummaryRoutes);
  secured.route('/project/:project_id/runner_tags', projectRunnerTagsRoutes);
  secured.route('/project/:project_id/runners', projectRunnersRoutes);
  secured.route('/project/:project_id/secret_storages', secretStoragesRoutes);
  secured.route('/tasks', activeTasksRoutes);
  secured.route('/retention', retentionRoutes);
  secured.route('/runner_tags', globalRunnerTagsRoutes);
  secured.route('/runners', globalRunnersRoutes);
  api.route('/api', secured);
  premiumFeatures = servedFeatures(api.routes);

  api.all('/api/*', (c) => c.text('Not Found', 404));
  api.onError(handleError);
  return api;
}
