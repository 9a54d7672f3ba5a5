import type { Deps } from '../deps.ts';
import { enqueueTask } from '../engine/queue/enqueue-task.ts';
import { recordEvent } from '../domain/events/event.repository.ts';
import { parseJsonObject } from '../lib/json-object.ts';
import type { Delivery } from './delivery.ts';
import { refuseDelivery } from './authenticate-delivery.ts';
import { findMismatch } from './match-delivery.ts';
import { extractValues } from './extract-values.ts';
import { listExtractValues, listMatchers, recordDelivery, type IntegrationRow } from './integration.repository.ts';

/**
 * Hands one delivery to each integration in turn: authenticate, match, extract, queue a task.
 * Every integration gets a delivery record saying what happened, so a user can see why a hook
 * did nothing. One integration's failure never stops the others.
 * @example await receiveDelivery(deps, integrations, toDelivery(headers, body));
 */
export async function receiveDelivery(deps: Deps, integrations: IntegrationRow[], delivery: Delivery): Promise<void> {
  for (const integration of integrations) {
    try {
      await receiveForIntegration(deps, integration, delivery);
    } catch (err) {
      await recordDelivery(deps.db, integration, { matched: true, reason: `failed to start task: ${(err as Error).message}` })
        .catch((recordErr) => console.warn(`[integrations] delivery for integration ${integration.id} not recorded:`, recordErr));
    }
  }
}

async function receiveForIntegration(deps: Deps, integration: IntegrationRow, delivery: Delivery): Promise<void> {
  const refusal = await refuseDelivery(deps, integration, delivery);
  if (refusal) return recordDelivery(deps.db, integration, { matched: false, reason: refusal });
  const mismatch = findMismatch(await listMatchers(deps.db, integration.id), delivery);
  if (mismatch) return recordDelivery(deps.db, integration, { matched: false, reason: mismatch });

  const { environment, fields, params } = extractValues(await listExtractValues(deps.db, integration.id), delivery);
  const task = await enqueueTask(deps, {
    projectId: integration.project_id,
    templateId: integration.template_id,
    integrationId: integration.id,
    userId: null,
    environment,
    params: { ...parseJsonObject(integration.task_params), ...params },
    message: fields.message,
    gitBranch: fields.git_branch,
    commitHash: fields.commit_hash,
    version: fields.version,
    arguments: fields.arguments,
    playbook: fields.playbook,
  });
  if (fields.commit_message !== undefined) {
    await deps.db.updateTable('task').set({ commit_message: fields.commit_message }).where('id', '=', task.id).execute();
  }
  await recordEvent(deps.db, {
    projectId: integration.project_id, userId: null, integrationId: integration.id, objectType: 'integration',
    objectId: integration.id, description: `Integration ${integration.name} started Task ID ${task.id}`,
  });
  await recordDelivery(deps.db, integration, { matched: true, reason: 'matched', taskId: task.id });
}
