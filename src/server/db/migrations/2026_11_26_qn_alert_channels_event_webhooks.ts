import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Issue 34 item 5. Project alert channels (`alert_channel`: a kind such as slack or telegram, a
 * plain `target` — chat id, gotify server, mail addresses — and the sealed `secret`: the webhook
 * URL or bot token); the channels a template chose (`template_alert_channel`, none = all).
 * Outgoing event webhooks (`event_webhook`, HMAC secret sealed), their durable queue
 * (`event_webhook_outbox`: one row per event and endpoint, retried with backoff) and the
 * deliveries log (`event_webhook_delivery`: one row per attempt).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await withId(db.schema.createTable('alert_channel'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('secret', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_channel_project').on('alert_channel').column('project_id').execute();
  await db.schema.createTable('template_alert_channel')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('alert_channel.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('template_alert_channel_pk', ['template_id', 'channel_id'])
    .execute();
  await db.schema.createIndex('template_alert_channel_channel').on('template_alert_channel').column('channel_id').execute();

  await withId(db.schema.createTable('event_webhook'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('events', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_webhook_project').on('event_webhook').column('project_id').execute();
  await withId(db.schema.createTable('event_webhook_outbox'), pg)
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('event_webhook.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_webhook_outbox_due').on('event_webhook_outbox').column('next_at').execute();
  await withId(db.schema.createTable('event_webhook_delivery'), pg)
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('event_webhook.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_webhook_delivery_webhook').on('event_webhook_delivery').columns(['webhook_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_webhook_delivery').execute();
  await db.schema.dropTable('event_webhook_outbox').execute();
  await db.schema.dropTable('event_webhook').execute();
  await db.schema.dropTable('template_alert_channel').execute();
  await db.schema.dropTable('alert_channel').execute();
}
