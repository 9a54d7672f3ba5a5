import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { EventWebhookDeliveryTable, EventWebhookTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';

export type EventWebhookRow = Selectable<EventWebhookTable>;
export type EventWebhookDeliveryRow = Selectable<EventWebhookDeliveryTable>;

/** What an outgoing webhook can subscribe to. */
export const WEBHOOK_EVENTS = ['task_started', 'task_finished', 'approval_waiting', 'template_changed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Body of POST/PUT `/event-webhooks`. `secret` is write-only: empty or left out on update keeps the stored one. */
export const eventWebhookInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().nullable().optional(),
  name: fields.name,
  url: z.string().trim().min(1, 'required').max(2048, 'at most 2048 characters'),
  secret: z.string().max(1024, 'at most 1024 characters').optional()
    .meta({ description: 'Write-only. Signs each body: X-Signalbox-Signature: sha256=<hex of HMAC-SHA256(secret, "<timestamp>.<body>")>; empty keeps the stored one' }),
  events: z.array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` })).min(1, 'choose at least one event'),
  active: z.boolean().optional(),
});
export type EventWebhookInput = z.infer<typeof eventWebhookInputSchema>;

/** A webhook as the API shows it: never its secret, only whether one is stored. */
export interface EventWebhook {
  id: number;
  project_id: number;
  name: string;
  url: string;
  secret_set: boolean;
  events: WebhookEvent[];
  active: boolean;
  created: string;
}

/** Maps a row to the API shape. */
export function eventWebhookRowToEventWebhook(row: EventWebhookRow): EventWebhook {
  return {
    id: row.id, project_id: row.project_id, name: row.name, url: row.url, secret_set: row.secret !== null && row.secret !== '',
    events: parseJsonColumn<WebhookEvent[]>(row.events, []), active: Boolean(row.active), created: row.created,
  };
}

/** One delivery attempt as the deliveries log shows it. */
export function deliveryRowToEventDelivery(row: EventWebhookDeliveryRow) {
  return {
    id: row.id, webhook_id: row.webhook_id, created: row.created, event: row.event, attempt: row.attempt,
    status_code: row.status_code, duration_ms: row.duration_ms, error: row.error, ok: row.status_code !== null && row.status_code >= 200 && row.status_code < 300,
  };
}
