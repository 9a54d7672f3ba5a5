import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { launchTask } from '../domain/tasks/launch/launch-task.ts';
import { taskInputOfStoredParams } from '../domain/tasks/launch/stored-task-params.ts';
import type { TaskInput } from '../domain/tasks/task.ts';
import { recordEvent } from '../domain/events/event.repository.ts';
import { parseJsonObject } from '../lib/json-object.ts';
import type { Delivery } from './delivery.ts';
import { refuseDelivery } from './authenticate-delivery.ts';
import { findMismatch } from './match-delivery.ts';
import { extractValues, type ExtractedValues } from './extract-values.ts';
import { TASK_FIELDS } from '../domain/integrations/integration.ts';
import { listExtractValues, listMatchers, recordDelivery, type IntegrationRow } from './integration.repository.ts';
import { deliveryDigest, MergedDelivery, onceWithinRule } from './once-within.ts';

/** What came of a delivery: a template's rate limit that refused it, and the tasks identical earlier deliveries started (once_within). */
export interface DeliveryOutcome {
  limited: ApiError | null;
  merged: number[];
}

/**
 * Hands one delivery to each integration in turn: authenticate, match, extract, queue a task.
 * Every integration gets a delivery record saying what happened, so a user can see why a hook
 * did nothing. One integration's failure never stops the others. Returns the refusal of a
 * template's rate limit, if one was met (the sender is told to slow down), and the tasks that
 * identical deliveries started inside an integration's `once_within` window.
 * @example const { limited, merged } = await receiveDelivery(deps, integrations, toDelivery(headers, body));
 */
export async function receiveDelivery(deps: Deps, integrations: IntegrationRow[], delivery: Delivery): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { limited: null, merged: [] };
  for (const integration of integrations) {
    try {
      await receiveForIntegration(deps, integration, delivery);
    } catch (err) {
      if (err instanceof MergedDelivery) {
        outcome.merged.push(err.taskId);
        await recordDelivery(deps.db, integration, { matched: true, reason: err.message, taskId: err.taskId });
        continue;
      }
      if (err instanceof ApiError && err.code === 'too_many') outcome.limited = err;
      await recordDelivery(deps.db, integration, { matched: true, reason: `failed to start task: ${(err as Error).message}` })
        .catch((recordErr) => console.warn(`[integrations] delivery for integration ${integration.id} not recorded:`, recordErr));
    }
  }
  return outcome;
}

async function receiveForIntegration(deps: Deps, integration: IntegrationRow, delivery: Delivery): Promise<void> {
  const refusal = await refuseDelivery(deps, integration, delivery);
  if (refusal) return recordDelivery(deps.db, integration, { matched: false, reason: refusal });
  const mismatch = findMismatch(await listMatchers(deps.db, integration.id), delivery);
  if (mismatch) return recordDelivery(deps.db, integration, { matched: false, reason: mismatch });

  const extracts = await listExtractValues(deps.db, integration.id);
  const { environment, fields, refused } = extractValues(extracts, delivery);
  if (refused.length) {
    return recordDelivery(deps.db, integration, { matched: true, reason: `refused: task values may set only ${TASK_FIELDS.join(', ')}, not ${refused.join(', ')}` });
  }
  const { task, notes } = await launchTask(deps, {
    path: 'webhook', user: null, permissions: 0, valuesFrom: 'configuration', integrationId: integration.id, ownerId: integration.owner_id,
    outsideValues: Object.keys(environment).length > 0,
    rules: [onceWithinRule(integration, deliveryDigest({ environment, fields }, delivery, extracts.length))],
  }, { projectId: integration.project_id, input: deliveryInput(integration, environment, fields) });
  await recordEvent(deps.db, {
    projectId: integration.project_id, userId: null, integrationId: integration.id, objectType: 'integration',
    objectId: integration.id, description: `Integration ${integration.name} started Task ID ${task.id}`,
  });
  await recordDelivery(deps.db, integration, { matched: true, reason: ['matched', ...notes].join('; '), taskId: task.id });
}

/**
 * What a delivery asks of the start: the integration's task_params, with the values extracted
 * from the payload over them (extra variables, and the task fields message, git_branch,
 * commit_hash). The launch rules judge them as they judge any start.
 */
function deliveryInput(integration: IntegrationRow, environment: Record<string, string>, fields: ExtractedValues['fields']): TaskInput {
  const input = taskInputOfStoredParams(integration.template_id, parseJsonObject(integration.task_params));
  if (Object.keys(environment).length) {
    const configured = typeof input.environment === 'string' ? parseJsonObject(input.environment) : input.environment ?? {};
    input.environment = { ...configured, ...environment };
  }
  if (fields.message !== undefined) input.message = fields.message;
  if (fields.git_branch !== undefined) input.git_branch = fields.git_branch;
  if (fields.commit_hash !== undefined) input.commit_hash = fields.commit_hash;
  return input;
}
