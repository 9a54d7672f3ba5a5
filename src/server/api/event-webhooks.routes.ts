import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl } from '../domain/project-resource.ts';
import { deliveryRowToEventDelivery, eventWebhookInputSchema, eventWebhookRowToEventWebhook } from '../domain/event-webhooks/event-webhook.ts';
import {
  createEventWebhook, deleteEventWebhook, findEventWebhook, listEventDeliveries, listEventWebhooks, updateEventWebhook,
} from '../domain/event-webhooks/event-webhook.service.ts';


/**
 * `/api/project/:project_id/event-webhooks`: outgoing webhooks that receive the project's events
 * (Signalbox), signed with their secret (never returned: `secret_set`), and each one's
 * deliveries log. Only owners and managers see them: a URL may carry a receiver's token.
 */
export const eventWebhooksRoutes = new Hono<AppEnv>();

eventWebhooksRoutes.get('/', async (c) => c.json((await listEventWebhooks(c.var.deps.db, c.var.project.id)).map(eventWebhookRowToEventWebhook)));

eventWebhooksRoutes.post('/', async (c) => {
  const input = await readJson(c, eventWebhookInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const row = await c.var.deps.db.transaction().execute((tx) => createEventWebhook(tx, c.var.deps.secrets, actorOf(c), input));
  return c.json(eventWebhookRowToEventWebhook(row), 201);
});

eventWebhooksRoutes.get('/:webhook_id', async (c) =>
  c.json(eventWebhookRowToEventWebhook(await findEventWebhook(c.var.deps.db, c.var.project.id, idParam(c, 'webhook_id')))));

eventWebhooksRoutes.put('/:webhook_id', async (c) => {
  const id = idParam(c, 'webhook_id');
  const input = await readJson(c, eventWebhookInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  await c.var.deps.db.transaction().execute((tx) => updateEventWebhook(tx, c.var.deps.secrets, actorOf(c), id, input));
  return c.body(null, 204);
});

eventWebhooksRoutes.delete('/:webhook_id', async (c) => {
  const id = idParam(c, 'webhook_id');
  await c.var.deps.db.transaction().execute((tx) => deleteEventWebhook(tx, actorOf(c), id));
  return c.body(null, 204);
});

/** The newest 200 delivery attempts, newest first: time, event, attempt, status code, duration, error. */
eventWebhooksRoutes.get('/:webhook_id/deliveries', async (c) => {
  const hook = await findEventWebhook(c.var.deps.db, c.var.project.id, idParam(c, 'webhook_id'));
  return c.json((await listEventDeliveries(c.var.deps.db, hook.id)).map(deliveryRowToEventDelivery));
});
