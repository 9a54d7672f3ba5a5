import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { keptSecret } from '../shared/bound-secret.ts';
import { sealSecret } from '../../crypto/sealed-secret.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now, toFlag } from '../../lib/time.ts';
import { outgoingUrlProblem } from '../../lib/outgoing-http.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Actor } from '../project-resource.ts';
import type { EventWebhookDeliveryRow, EventWebhookInput, EventWebhookRow, WebhookEvent } from './event-webhook.ts';

/** How many delivery attempts the log keeps per webhook (older ones are dropped). */
export const DELIVERIES_KEPT = 200;

/** What to wake when events were queued (the delivery loop, when this process runs one). */
const queue = { wake: (): void => {} };

/** Names what `enqueueWebhookEvent` wakes; the delivery loop sets it at start and clears it at stop. */
export function onWebhookEventsQueued(wake: () => void): void {
  queue.wake = wake;
}

/** The event webhooks of a project, in the order they were added. */
export function listEventWebhooks(db: Db | Tx, projectId: number): Promise<EventWebhookRow[]> {
  return db.selectFrom('event_webhook').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/** One webhook of the project, or a 404. */
export async function findEventWebhook(db: Db | Tx, projectId: number, id: number): Promise<EventWebhookRow> {
  const row = await db.selectFrom('event_webhook').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

function webhookValues(box: SecretBox, input: EventWebhookInput, current?: EventWebhookRow) {
  const problem = outgoingUrlProblem(input.url);
  if (problem) throw badRequest(`url: ${problem}`);
  return {
    name: input.name, url: input.url, events: JSON.stringify([...new Set(input.events)]),
    secret: keptSecret(input.secret ? sealSecret(box, input.secret) : null, current?.secret ?? null, input.url === current?.url),
    active: input.active === undefined ? current?.active ?? 1 : toFlag(input.active),
  };
}

/** Validates and stores a new webhook. */
export async function createEventWebhook(tx: Tx, box: SecretBox, actor: Actor, input: EventWebhookInput): Promise<EventWebhookRow> {
  const row = await tx.insertInto('event_webhook').values({ project_id: actor.projectId, ...webhookValues(box, input), created: now() }).returningAll().executeTakeFirstOrThrow();
  await recordWebhookEvent(tx, actor, row, 'created');
  return row;
}

/** Replaces a webhook's values (its secret only when a new one is given). */
export async function updateEventWebhook(tx: Tx, box: SecretBox, actor: Actor, id: number, input: EventWebhookInput): Promise<void> {
  const current = await findEventWebhook(tx, actor.projectId, id);
  const values = webhookValues(box, input, current);
  await tx.updateTable('event_webhook').set(values).where('id', '=', id).execute();
  await recordWebhookEvent(tx, actor, { id, name: values.name }, 'updated');
}

/** Deletes a webhook with its queue and deliveries log. */
export async function deleteEventWebhook(tx: Tx, actor: Actor, id: number): Promise<void> {
  const existing = await findEventWebhook(tx, actor.projectId, id);
  await tx.deleteFrom('event_webhook_outbox').where('webhook_id', '=', id).execute();
  await tx.deleteFrom('event_webhook_delivery').where('webhook_id', '=', id).execute();
  await tx.deleteFrom('event_webhook').where('id', '=', id).execute();
  await recordWebhookEvent(tx, actor, existing, 'deleted');
}

function recordWebhookEvent(tx: Tx, actor: Actor, row: Pick<EventWebhookRow, 'id' | 'name'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'event_webhook', objectId: row.id, objectName: row.name,
    description: `Event webhook ${row.name} ${verb}`,
  });
}

/** The newest delivery attempts of a webhook, newest first. */
export function listEventDeliveries(db: Db | Tx, webhookId: number, limit = DELIVERIES_KEPT): Promise<EventWebhookDeliveryRow[]> {
  return db.selectFrom('event_webhook_delivery').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Queues `event` for every active webhook of the project subscribed to it: one outbox row each,
 * written with `db` — the transaction of the change it announces, when there is one, so the
 * event is queued exactly when the change commits. Sending happens later, beside requests.
 * @example await enqueueWebhookEvent(tx, projectId, 'template_changed', { action: 'updated', template: { id, name } });
 */
export async function enqueueWebhookEvent(db: Db | Tx, projectId: number, event: WebhookEvent, data: Record<string, unknown>): Promise<number> {
  const hooks = (await db.selectFrom('event_webhook').select(['id', 'events']).where('project_id', '=', projectId).where('active', '=', 1).execute())
    .filter((hook) => parseJsonColumn<string[]>(hook.events, []).includes(event));
  if (!hooks.length) return 0;
  const created = now();
  await db.insertInto('event_webhook_outbox').values(hooks.map((hook) => ({
    webhook_id: hook.id, event, created, next_at: created,
    payload: JSON.stringify({ id: randomUUID(), event, created, project_id: projectId, data }),
  }))).execute();
  queue.wake();
  return hooks.length;
}
