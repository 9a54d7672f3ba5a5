import type { Config } from '../config/config.ts';
import type { Db } from '../db/database.ts';
import { yieldToEventLoop } from '../lib/time-slice.ts';

/** Deliveries kept per integration: its delivery log shows the newest; older ones go. */
export const DELIVERIES_PER_INTEGRATION = 1000;

const DAY_MS = 86_400_000;


/**
 * Removes an integration's deliveries beyond its newest DELIVERIES_PER_INTEGRATION, so a
 * sender posting without end cannot grow the table. Called after each recorded delivery.
 * @example await keepNewestDeliveries(db, integration.id);
 */
export async function keepNewestDeliveries(db: Db, integrationId: number): Promise<void> {
  const oldestKept = await db.selectFrom('integration_delivery').select('id').where('integration_id', '=', integrationId)
    .orderBy('id', 'desc').offset(DELIVERIES_PER_INTEGRATION - 1).limit(1).executeTakeFirst();
  if (!oldestKept) return;
  await db.deleteFrom('integration_delivery').where('integration_id', '=', integrationId).where('id', '<', oldestKept.id).execute();
}

/**
 * Deliveries follow the task retention settings: those older than the project's
 * `task_retention_days` (0: the global setting; both 0: kept) are removed, one integration at
 * a time. Returns how many were removed.
 * @example const removed = await purgeExpiredDeliveries(db, config);
 */
export async function purgeExpiredDeliveries(db: Db, config: Config, now = new Date()): Promise<number> {
  const projects = await db.selectFrom('project').select(['id', 'task_retention_days']).execute();
  let removed = 0;
  for (const project of projects) {
    const days = project.task_retention_days || config.task_retention_days;
    if (days <= 0) continue;
    const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
    const integrations = await db.selectFrom('integration').select('id').where('project_id', '=', project.id).execute();
    for (const integration of integrations) {
      const deleted = await db.deleteFrom('integration_delivery').where('integration_id', '=', integration.id).where('created', '<', cutoff).executeTakeFirst();
      removed += Number(deleted.numDeletedRows);
      await yieldToEventLoop();
    }
  }
  return removed;
}
