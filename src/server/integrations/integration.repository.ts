import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Config } from '../config/config.ts';
import type { IntegrationDeliveryTable, IntegrationTable } from '../db/schema.ts';
import type { MatcherRow } from './match-delivery.ts';
import type { ExtractValueRow } from './extract-values.ts';
import { keepNewestDeliveries } from '../retention/purge-deliveries.ts';
import { writeAudit } from '../domain/audit/audit.writer.ts';

export type IntegrationRow = Selectable<IntegrationTable>;
export type DeliveryRow = Selectable<IntegrationDeliveryTable>;

/**
 * The integrations an alias addresses, or null for an unknown alias:
 * the global alias (config) → every searchable integration; an integration's alias → that one;
 * a project alias → the project's searchable integrations.
 * @example await resolveAlias(db, config, 'k3j9x0q2m1v8z7w6')
 */
export async function resolveAlias(db: Db, config: Config, alias: string): Promise<IntegrationRow[] | null> {
  if (config.global_integration_alias && alias === config.global_integration_alias) {
    return db.selectFrom('integration').selectAll().where('searchable', '=', 1).orderBy('id').execute();
  }
  const row = await db.selectFrom('integration_alias').selectAll().where('alias', '=', alias).executeTakeFirst();
  if (!row) return null;
  let query = db.selectFrom('integration').selectAll().where('project_id', '=', row.project_id);
  query = row.integration_id === null ? query.where('searchable', '=', 1) : query.where('id', '=', row.integration_id);
  return query.orderBy('id').execute();
}

/** The matchers of an integration, in creation order. */
export async function listMatchers(db: Db, integrationId: number): Promise<MatcherRow[]> {
  return db.selectFrom('integration_matcher').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();
}

/** The values an integration extracts from deliveries, in creation order. */
export async function listExtractValues(db: Db, integrationId: number): Promise<ExtractValueRow[]> {
  return db.selectFrom('integration_extract_value').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();
}

/**
 * Records what happened to one delivery for one integration; only the newest 1,000 stay. A
 * delivery that started no task leaves its audit row here, in the same transaction (a started
 * task is recorded by the queue); `auditAction` names a refused request's row.
 */
export async function recordDelivery(db: Db, integration: IntegrationRow, outcome: { matched: boolean; reason: string; taskId?: number | null }, auditAction?: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('integration_delivery').values({
      project_id: integration.project_id, integration_id: integration.id, created: new Date().toISOString(),
      matched: outcome.matched ? 1 : 0, reason: outcome.reason, task_id: outcome.taskId ?? null,
    }).execute();
    if (outcome.taskId == null) {
      await writeAudit(tx, {
        action: auditAction, objectType: 'integration', objectId: integration.id, objectName: integration.name,
        projectId: integration.project_id, description: `Delivery: ${outcome.reason}`,
      });
    }
  });
  await keepNewestDeliveries(db, integration.id);
}

/** The newest deliveries of an integration, newest first. */
export async function listDeliveries(db: Db, projectId: number, integrationId: number, limit = 100): Promise<DeliveryRow[]> {
  return db.selectFrom('integration_delivery').selectAll()
    .where('project_id', '=', projectId).where('integration_id', '=', integrationId)
    .orderBy('id', 'desc').limit(limit).execute();
}
