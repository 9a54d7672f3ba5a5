import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { now, toFlag } from '../../lib/time.ts';
import { outgoingUrlProblem } from '../../lib/outgoing-http.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';
import { recordEvent } from '../events/event.repository.ts';
import { ALERT_CHANNEL_KINDS } from '../alert-channels/alert-channel.ts';
import { setTemplateAlertChannels } from '../alert-channels/alert-channel.service.ts';
import { WEBHOOK_EVENTS } from '../event-webhooks/event-webhook.ts';
import { idOf, type RestoreContext } from './restore-context.ts';
import { uniqueNames } from './unique-names.ts';

/**
 * A project's alert channels and event webhooks in a backup (`alert_channels`, `event_webhooks`:
 * Signalbox's sections) and each template's choice of channels (`templates[].alert_channels`,
 * by name). What a channel or webhook holds as a secret (a chat URL that carries its token, a
 * bot token, a signing secret) never travels, as no secret does: a restored channel sends
 * again once its owner enters it. The plain parts (chat id, gotify server, addresses, webhook
 * URL and events) do.
 */
export const backupAlertChannelSchema = z.looseObject({
  name: z.string().trim().min(1, 'required').max(255), kind: z.enum(ALERT_CHANNEL_KINDS), active: z.boolean().nullable().optional(),
  chat_id: z.string().max(255).nullable().optional(), server_url: z.string().max(2048).nullable().optional(),
  emails: z.array(z.string().max(254)).max(50).nullable().optional(),
});
export const backupEventWebhookSchema = z.looseObject({
  name: z.string().trim().min(1, 'required').max(255), url: z.string().trim().min(1, 'required').max(2048),
  events: z.array(z.enum(WEBHOOK_EVENTS)).max(WEBHOOK_EVENTS.length).nullable().optional(), active: z.boolean().nullable().optional(),
});
type BackupAlertChannel = z.infer<typeof backupAlertChannelSchema>;
type BackupEventWebhook = z.infer<typeof backupEventWebhookSchema>;

/** The project's channels (without secrets) and the names they go by, in the order they were added. */
export async function exportAlertChannels(db: Db, projectId: number): Promise<{ list: BackupAlertChannel[]; nameOf: Map<number, string> }> {
  const rows = await db.selectFrom('alert_channel').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  const nameOf = uniqueNames(rows, (r) => r.name);
  const list = rows.map((r) => ({
    name: nameOf.get(r.id)!, kind: r.kind as BackupAlertChannel['kind'], active: Boolean(r.active),
    ...(r.kind === 'telegram' ? { chat_id: r.target } : {}),
    ...(r.kind === 'gotify' ? { server_url: r.target } : {}),
    ...(r.kind === 'email' ? { emails: r.target ? r.target.split(',') : [] } : {}),
  }));
  return { list, nameOf };
}

/** The project's event webhooks, without their signing secrets. */
export async function exportEventWebhooks(db: Db, projectId: number): Promise<BackupEventWebhook[]> {
  const rows = await db.selectFrom('event_webhook').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  return rows.map((r) => ({ name: r.name, url: r.url, events: parseJsonColumn<BackupEventWebhook['events']>(r.events, []), active: Boolean(r.active) }));
}

/** The channels each template chose, by the names `exportAlertChannels` gave them. */
export async function exportTemplateChannelNames(db: Db, templateIds: number[], nameOf: Map<number, string>): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!templateIds.length) return out;
  const rows = await db.selectFrom('template_alert_channel').select(['template_id', 'channel_id']).where('template_id', 'in', templateIds).orderBy('channel_id').execute();
  for (const row of rows) out.set(row.template_id, [...(out.get(row.template_id) ?? []), nameOf.get(row.channel_id)!]);
  return out;
}

/** Before anything is written: names unique, destinations allowed, every template's channel in the backup. */
export function verifyAlerts(channels: BackupAlertChannel[] | null | undefined, webhooks: BackupEventWebhook[] | null | undefined,
  templates: { alert_channels?: string[] | null }[] | null | undefined): void {
  const names = new Set<string>();
  for (const [i, channel] of (channels ?? []).entries()) {
    if (names.has(channel.name)) throw badRequest(`alert_channels[${i}]: name "${channel.name}" is used twice`);
    names.add(channel.name);
    const problem = channel.kind === 'gotify' && channel.server_url ? outgoingUrlProblem(channel.server_url) : null;
    if (problem) throw badRequest(`alert_channels[${i}]: server_url ${problem}`);
  }
  for (const [i, hook] of (webhooks ?? []).entries()) {
    const problem = outgoingUrlProblem(hook.url);
    if (problem) throw badRequest(`event_webhooks[${i}]: url ${problem}`);
  }
  for (const [i, template] of (templates ?? []).entries()) {
    for (const name of template.alert_channels ?? []) {
      if (!names.has(name)) throw badRequest(`templates[${i}]: alert channel "${name}" does not exist`);
    }
  }
}

/** Restores the channels (without secrets) and the webhooks (without signing secrets); returns the channels' ids by name. */
export async function restoreAlerts(ctx: RestoreContext, channels: BackupAlertChannel[] | null | undefined, webhooks: BackupEventWebhook[] | null | undefined): Promise<Map<string, number>> {
  const { tx, actor } = ctx;
  const ids = new Map<string, number>();
  for (const channel of channels ?? []) {
    const target = channel.kind === 'telegram' ? channel.chat_id ?? '' : channel.kind === 'gotify' ? channel.server_url ?? ''
      : channel.kind === 'email' ? [...new Set(channel.emails ?? [])].join(',') : '';
    const row = await tx.insertInto('alert_channel').values({
      project_id: actor.projectId, kind: channel.kind, name: channel.name, active: toFlag(channel.active ?? true), target, secret: null, created: now(),
    }).returningAll().executeTakeFirstOrThrow();
    ids.set(row.name, row.id);
    await recordEvent(tx, { ...actor, objectType: 'alert_channel', objectId: row.id, objectName: row.name, description: `Alert channel ${row.name} created` });
    await ctx.pause();
  }
  for (const hook of webhooks ?? []) {
    const row = await tx.insertInto('event_webhook').values({
      project_id: actor.projectId, name: hook.name, url: hook.url, secret: null, events: JSON.stringify([...new Set(hook.events ?? [])]),
      active: toFlag(hook.active ?? true), created: now(),
    }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, objectType: 'event_webhook', objectId: row.id, objectName: row.name, description: `Event webhook ${row.name} created` });
    await ctx.pause();
  }
  return ids;
}

/** Gives each restored template the channels it chose (by name). */
export async function restoreTemplateChannels(ctx: RestoreContext, channelIds: Map<string, number>, templates: { name: string; alert_channels?: string[] | null }[] | null | undefined): Promise<void> {
  for (const template of templates ?? []) {
    const chosen = (template.alert_channels ?? []).map((name) => idOf(channelIds, name)!);
    const templateId = idOf(ctx.ids.templates, template.name);
    if (chosen.length && templateId !== null) await setTemplateAlertChannels(ctx.tx, templateId, [...new Set(chosen)]);
  }
}
