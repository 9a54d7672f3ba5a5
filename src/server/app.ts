import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './http/context.ts';
import type { Deps } from './deps.ts';
import { ApiError, handleError } from './http/errors.ts';
import { compressResponse } from './http/compression.ts';
import { authenticate } from './auth/authenticate.ts';
import { projectScope } from './auth/project-scope.ts';
import { authRoutes } from './api/auth.routes.ts';
import { systemRoutes } from './api/system.routes.ts';
import { userRoutes } from './api/user.routes.ts';
import { projectsRoutes } from './api/projects.routes.ts';
import { projectRoutes } from './api/project.routes.ts';
import { keysRoutes } from './api/keys.routes.ts';
import { repositoriesRoutes } from './api/repositories.routes.ts';
import { inventoryRoutes } from './api/inventory.routes.ts';
import { environmentRoutes } from './api/environment.routes.ts';
import { appsRoutes } from './api/apps.routes.ts';
import { tokensRoutes } from './api/tokens.routes.ts';
import { usersRoutes } from './api/users.routes.ts';
import { eventsRoutes, projectEventsRoutes } from './api/events.routes.ts';
import { projectUsersRoutes } from './api/project-users.routes.ts';
import { integrationWebhookRoutes } from './api/integration-webhook.routes.ts';
import { integrationDeliveriesRoutes } from './api/integration-deliveries.routes.ts';
import { templatesRoutes } from './api/templates.routes.ts';
import { viewsRoutes } from './api/views.routes.ts';
import { schedulesRoutes } from './api/schedules.routes.ts';
import { integrationsRoutes } from './api/integrations.routes.ts';
import { statsRoutes } from './api/stats.routes.ts';
import { backupRoutes } from './api/backup.routes.ts';
import { restoreRoutes } from './api/restore.routes.ts';
import { tasksRoutes } from './api/tasks.routes.ts';
import { activeTasksRoutes } from './api/active-tasks.routes.ts';

/** Largest JSON body accepted (backups of big projects fit comfortably). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The runner API: every route under `/api`, with the error contract and auth in one place.
 * @example const api = createApi(deps); await api.request('/api/ping');
 */
export function createApi(deps: Deps): Hono<AppEnv> {
  const api = new Hono<AppEnv>({ strict: false });
  api.use('*', async function compress(c, next) {
    await next();
    const compressed = await compressResponse(c.req.raw, c.res);
    // Assigning over a response merges the old one's headers (its length) into the new one.
    c.res = undefined;
    c.res = compressed;
  });
  api.use('*', async function provideDeps(c, next) {
    c.set('deps', deps);
    await next();
    if (!c.res.headers.get('content-type') && c.req.path !== '/api/ping') c.res.headers.set('content-type', 'application/json');
  });
  api.use('*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => { throw new ApiError('too_large', 'request body is too large'); } }));

  api.route('/api', systemRoutes);
  api.route('/api/auth', authRoutes);
  api.route('/api/integrations', integrationWebhookRoutes);

  const secured = new Hono<AppEnv>({ strict: false });
  secured.use('*', authenticate());
  secured.route('/user/tokens', tokensRoutes);
  secured.route('/user', userRoutes);
  secured.route('/users', usersRoutes);
  secured.route('/projects/restore', restoreRoutes);
  secured.route('/projects', projectsRoutes);
  secured.route('/events', eventsRoutes);
  secured.use('/project/:project_id/*', projectScope());
  secured.use('/project/:project_id', projectScope());
  secured.route('/project/:project_id/users', projectUsersRoutes);
  secured.route('/project/:project_id/events', projectEventsRoutes);
  secured.route('/project/:project_id', projectRoutes);
  secured.route('/project/:project_id/keys', keysRoutes);
  secured.route('/project/:project_id/repositories', repositoriesRoutes);
  secured.route('/project/:project_id/inventory', inventoryRoutes);
  secured.route('/project/:project_id/environment', environmentRoutes);
  secured.route('/apps', appsRoutes);
  secured.route('/project/:project_id/integrations/:integration_id/deliveries', integrationDeliveriesRoutes);
  secured.route('/project/:project_id/templates', templatesRoutes);
  secured.route('/project/:project_id/views', viewsRoutes);
  secured.route('/project/:project_id/schedules', schedulesRoutes);
  secured.route('/project/:project_id/integrations', integrationsRoutes);
  secured.route('/project/:project_id/stats', statsRoutes);
  secured.route('/project/:project_id/backup', backupRoutes);
  secured.route('/project/:project_id', tasksRoutes);
  secured.route('/tasks', activeTasksRoutes);
  api.route('/api', secured);

  api.all('/api/*', (c) => c.text('Not Found', 404));
  api.onError(handleError);
  return api;
}
