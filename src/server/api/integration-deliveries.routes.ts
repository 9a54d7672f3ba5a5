import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { idParam } from '../http/validation.ts';
import { listDeliveries, type DeliveryRow } from '../integrations/integration.repository.ts';

/**
 * `/api/project/:project_id/integrations/:integration_id/deliveries`: the last 100 webhook
 * deliveries of an integration, newest first, with why each one did or did not start a task.
 * Any project member may read them.
 */
export const integrationDeliveriesRoutes = new Hono<AppEnv>();

integrationDeliveriesRoutes.get('/', async (c) => {
  const { db } = c.var.deps;
  const integrationId = idParam(c, 'integration_id');
  const integration = await db.selectFrom('integration').select('id')
    .where('id', '=', integrationId).where('project_id', '=', c.var.project.id).executeTakeFirst();
  if (!integration) throw notFound();
  const rows = await listDeliveries(db, c.var.project.id, integrationId);
  return c.json(rows.map(deliveryRowToDelivery));
});

/** The wire shape of one delivery record. */
export function deliveryRowToDelivery(row: DeliveryRow) {
  return {
    id: row.id, project_id: row.project_id, integration_id: row.integration_id, created: row.created,
    matched: Boolean(row.matched), reason: row.reason, task_id: row.task_id,
  };
}
