import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { requireAdmin } from '../auth/authenticate.ts';
import { runRetention } from '../retention/retention-job.ts';

/** `/api/retention`: admins apply the retention settings now instead of at the next hourly run. */
export const retentionRoutes = new Hono<AppEnv>();

retentionRoutes.post('/purge', requireAdmin(), async (c) => {
  return c.json(await runRetention(c.var.deps));
});
