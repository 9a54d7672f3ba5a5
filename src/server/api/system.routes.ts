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
    premium_features: c.var.premiumFeatures,
    /** task identity tokens: whether templates may ask for one, and the TTLs they may choose within (seconds) */
    jwt: { enabled: config.jwt.enabled, default_ttl: config.jwt.default_ttl, max_ttl: config.jwt.max_ttl },
  });
});
