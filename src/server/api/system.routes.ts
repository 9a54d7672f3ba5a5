import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { authenticate, requireAdmin } from '../auth/authenticate.ts';
import { detectAnsibleVersion } from '../system/ansible-version.ts';
import { authMethods } from './auth.routes.ts';
import { collectGarbage } from '../lib/collect-garbage.ts';
import { writeAudit } from '../domain/audit/audit.writer.ts';

/** `/api/ping` (no auth), `/api/info` and `/api/debug/gc`. */
export const systemRoutes = new Hono<AppEnv>();

systemRoutes.get('/ping', (c) => c.text('pong'));

systemRoutes.get('/info', authenticate(), async (c) => {
  const { config, version } = c.var.deps;
  return c.json({
    version,
    ansible: await detectAnsibleVersion(),
    // unset, Semaphore says "" and its UI builds links from the page's own origin (behind a proxy too)
    web_host: config.web_host_configured ? config.web_host : '',
    use_remote_runner: config.use_remote_runner,
    schedule_timezone: config.schedule_timezone,
    git_client: 'cmd_git',
    auth_methods: authMethods(config),
    premium_features: c.var.premiumFeatures,
    /** task identity tokens: whether templates may ask for one, and the TTLs they may choose within (seconds) */
    jwt: { enabled: config.jwt.enabled, default_ttl: config.jwt.default_ttl, max_ttl: config.jwt.max_ttl },
  });
});

/** `POST /api/debug/gc` (admins): a full garbage collection now, as Semaphore's debug route. */
systemRoutes.post('/debug/gc', authenticate(), requireAdmin(), async (c) => {
  collectGarbage();
  await writeAudit(c.var.deps.db, { objectType: 'system', objectName: 'memory', description: 'Garbage collected' });
  return c.body(null, 204);
});
