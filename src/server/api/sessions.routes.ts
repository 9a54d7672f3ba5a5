import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { listSessions, revokeSession } from '../auth/sessions.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';

/** `/api/user/sessions`: where the caller is signed in, and signing out one of those places. */
export const sessionsRoutes = new Hono<AppEnv>();

sessionsRoutes.get('/', async (c) => c.json(await listSessions(c.var.deps.db, c.var.user.id, c.var.sessionId)));

sessionsRoutes.delete('/:session_id', async (c) => {
  const id = c.req.param('session_id');
  const revoked = await withAudit(c.var.deps.db, (tx) => revokeSession(tx, c.var.user.id, id),
    (done) => (done ? { objectType: 'session', objectName: id.slice(0, 16) } : null));
  if (!revoked) throw notFound();
  return c.body(null, 204);
});
