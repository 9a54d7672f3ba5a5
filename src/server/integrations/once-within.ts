import { createHash } from 'node:crypto';
import type { LaunchRule } from '../domain/tasks/launch/launch.ts';
import { serialiseTemplateStarts } from '../domain/tasks/launch/rules/template-concurrency.ts';
import type { Delivery } from './delivery.ts';
import type { ExtractedValues } from './extract-values.ts';
import type { IntegrationRow } from './integration.repository.ts';

/** A delivery identical to one that started a task inside the integration's window: it starts nothing. */
export class MergedDelivery extends Error {
  readonly taskId: number;
  constructor(taskId: number, seconds: number) {
    super(`merged: an identical delivery started task ${taskId} less than ${seconds} s ago`);
    this.taskId = taskId;
  }
}

/**
 * What makes two deliveries the same: the values the integration extracts, when it extracts
 * any (a sender's delivery id or timestamp then does not count), else the whole body.
 * @example deliveryDigest(extracted, delivery, 2) // 'sha256:…'
 */
export function deliveryDigest(extracted: Pick<ExtractedValues, 'environment' | 'fields'>, delivery: Delivery, extractCount: number): string {
  const hash = createHash('sha256');
  if (extractCount > 0) hash.update(JSON.stringify([Object.entries(extracted.environment), Object.entries(extracted.fields)]));
  else hash.update(delivery.body);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * The webhook path's rule for an integration with `once_within`: the task keeps its delivery's
 * digest, and a start whose digest started a task of this integration inside the window is
 * merged into it (MergedDelivery). Asked in the queuing transaction after the template's other
 * starts are serialised, so identical deliveries arriving together start one task.
 */
export function onceWithinRule(integration: IntegrationRow, digest: string): LaunchRule {
  return {
    name: 'once within',
    check(launch) {
      launch.task.triggerDigest = digest;
    },
    async admit(tx, launch) {
      const seconds = integration.once_within;
      if (!seconds) return;
      await serialiseTemplateStarts(tx, launch.template.id);
      const since = new Date(Date.now() - seconds * 1000).toISOString();
      const earlier = await tx.selectFrom('task').select('id').where('integration_id', '=', integration.id)
        .where('trigger_digest', '=', digest).where('created', '>=', since).orderBy('id').limit(1).executeTakeFirst();
      if (earlier) throw new MergedDelivery(earlier.id, seconds);
    },
  };
}
