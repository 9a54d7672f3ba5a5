import type { Deps } from '../deps.ts';
import { enqueueTask } from '../domain/tasks/enqueue-task.ts';
import { recordEvent } from '../domain/events/event.repository.ts';
import { parseJsonObject } from '../lib/json-object.ts';
import type { Delivery } from './delivery.ts';
import { refuseDelivery } from './authenticate-delivery.ts';
import { findMismatch } from './match-delivery.ts';
import { extractValues, TASK_FIELDS, type ExtractedValues } from './extract-values.ts';
import { checkCommitHash, checkGitBranch } from '../domain/tasks/git-refs.ts';
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

  const { environment, fields, refused } = extractValues(await listExtractValues(deps.db, integration.id), delivery);
  if (refused.length) {
    return recordDelivery(deps.db, integration, { matched: true, reason: `refused: task values may set only ${TASK_FIELDS.join(', ')}, not ${refused.join(', ')}` });
  }
  const task = await enqueueTask(deps, {
    projectId: integration.project_id,
    templateId: integration.template_id,
    integrationId: integration.id,
    userId: null,
    environment,
    params: parseJsonObject(integration.task_params),
    message: fields.message,
    ...await checkedRefs(deps, integration, fields),
  });
  await recordEvent(deps.db, {
    projectId: integration.project_id, userId: null, integrationId: integration.id, objectType: 'integration',
    objectId: integration.id, description: `Integration ${integration.name} started Task ID ${task.id}`,
  });
  await recordDelivery(deps.db, integration, { matched: true, reason: 'matched', taskId: task.id });
}

/**
 * The branch and commit a delivery asks for, through the same checks as POST /tasks; a branch
 * only when the template allows overriding it. A bad value fails the delivery with its reason.
 */
async function checkedRefs(deps: Deps, integration: IntegrationRow, fields: ExtractedValues['fields']) {
  let gitBranch: string | undefined;
  if (fields.git_branch?.trim()) {
    const template = await deps.db.selectFrom('template').select('allow_override_branch_in_task')
      .where('id', '=', integration.template_id).executeTakeFirst();
    if (!template?.allow_override_branch_in_task) throw new Error('git_branch: the template does not allow a branch override');
    gitBranch = checkGitBranch(fields.git_branch);
  }
  const commitHash = fields.commit_hash?.trim() ? checkCommitHash(fields.commit_hash) : undefined;
  return { gitBranch, commitHash };
}
