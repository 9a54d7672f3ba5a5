import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { requireAdmin } from '../auth/authenticate.ts';
import { runRetention } from '../retention/retention-job.ts';
import { currentAuditRequest } from '../domain/audit/audit-context.ts';
import { writeAudit } from '../domain/audit/audit.writer.ts';

/** `/api/retention`: admins apply the retention settings now instead of at the next hourly run. */
export const retentionRoutes = new Hono<AppEnv>();

retentionRoutes.post('/purge', requireAdmin(), async (c) => {
  const removed = await runRetention(c.var.deps);
  // the purge runs in batches, each its own transaction; its record says what all of them removed
  // (a purge of audit rows has already recorded itself)
  if (!currentAuditRequest()?.written) {
    await writeAudit(c.var.deps.db, { objectType: 'retention', projectId: null, description: `${removed.tasks} tasks and ${removed.output_lines} output lines removed` });
  }
  return c.json(removed);
});
