import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { listSessions, revokeSession } from '../auth/sessions.ts';

/** `/api/user/sessions`: where the caller is signed in, and signing out one of those places. */
export const sessionsRoutes = new Hono<AppEnv>();

sessionsRoutes.get('/', async (c) => c.json(await listSessions(c.var.deps.db, c.var.user.id, c.var.sessionId)));

sessionsRoutes.delete('/:session_id', async (c) => {
  if (!(await revokeSession(c.var.deps.db, c.var.user.id, c.req.param('session_id')))) throw notFound();
  return c.body(null, 204);
});
