import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './http/context.ts';
import type { Deps } from './deps.ts';
import { ApiError, handleError } from './http/errors.ts';
import { authenticate } from './auth/authenticate.ts';
import { projectScope } from './auth/project-scope.ts';
import { authRoutes } from './api/auth.routes.ts';
import { systemRoutes } from './api/system.routes.ts';
import { userRoutes } from './api/user.routes.ts';
import { projectsRoutes } from './api/projects.routes.ts';
import { projectRoutes } from './api/project.routes.ts';
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
  api.use('*', async function provideDeps(c, next) {
    c.set('deps', deps);
    await next();
    if (!c.res.headers.get('content-type') && c.req.path !== '/api/ping') c.res.headers.set('content-type', 'application/json');
  });
  api.use('*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => { throw new ApiError('too_large', 'request body is too large'); } }));

  api.route('/api', systemRoutes);
  api.route('/api/auth', authRoutes);

  const secured = new Hono<AppEnv>({ strict: false });
  secured.use('*', authenticate());
  secured.route('/user', userRoutes);
  secured.route('/projects', projectsRoutes);
  secured.use('/project/:project_id/*', projectScope());
  secured.use('/project/:project_id', projectScope());
  secured.route('/project/:project_id', projectRoutes);
  secured.route('/project/:project_id', tasksRoutes);
  secured.route('/tasks', activeTasksRoutes);
  api.route('/api', secured);

  api.all('/api/*', (c) => c.text('Not Found', 404));
  api.onError(handleError);
  return api;
}
