import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { detectAnsibleVersion } from '../system/ansible-version.ts';
import { authMethods } from './auth.routes.ts';

/** `/api/ping` (no auth) and `/api/info`. */
export const systemRoutes = new Hono<AppEnv>();

systemRoutes.get('/ping', (c) => c.text('pong'));

systemRoutes.get('/info', authenticate(), async (c) => {
  const { config, version } = c.var.deps;
  return c.json({
    version,
    ansible: await detectAnsibleVersion(),
    web_host: config.web_host,
    use_remote_runner: config.use_remote_runner,
    schedule_timezone: config.schedule_timezone,
    git_client: 'cmd_git',
    auth_methods: authMethods(config),
    // remote runners are not served yet; clients hide their screens while this is false
    premium_features: { project_runners: false, terraform_backend: true },
  });
});
