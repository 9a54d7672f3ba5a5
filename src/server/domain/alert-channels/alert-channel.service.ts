import type { Db, Tx } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { keptSecret } from '../shared/bound-secret.ts';
import { sealSecret } from '../../crypto/sealed-secret.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now, toFlag } from '../../lib/time.ts';
import { outgoingUrlProblem } from '../../lib/outgoing-http.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Actor } from '../project-resource.ts';
import { TOKEN_KINDS, URL_KINDS, type AlertChannelInput, type AlertChannelRow } from './alert-channel.ts';

/** The alert channels of a project, in the order they were added. */
export function listAlertChannels(db: Db | Tx, projectId: number): Promise<AlertChannelRow[]> {
  return db.selectFrom('alert_channel').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/** One channel of the project, or a 404 (another project's ids look missing). */
export async function findAlertChannel(db: Db | Tx, projectId: number, id: number): Promise<AlertChannelRow> {
  const row = await db.selectFrom('alert_channel').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * The row values of a channel body, checked for its kind. The secret (URL or token) is sealed;
 * on update an empty one keeps the stored secret unless the kind or the server it goes to changed.
 */
function channelValues(box: SecretBox, input: AlertChannelInput, current?: AlertChannelRow) {
  const { kind } = input;
  // a Gotify token goes to its server_url: a new server gets the token only if the request gives it
  const sameServer = kind !== 'gotify' || input.server_url === undefined || input.server_url === current?.target;
  const keep = current && current.kind === kind ? keptSecret(null, current.secret, sameServer) : null;
  let target = '';
  let secret: string | null = null;
  if (URL_KINDS.has(kind)) {
    if (input.url) {
      const problem = outgoingUrlProblem(input.url);
      if (problem) throw badRequest(`url: ${problem}`);
      secret = sealSecret(box, input.url);
    } else if (keep) secret = keep;
    else throw badRequest('url: required');
  }
  if (TOKEN_KINDS.has(kind)) {
    secret = input.token ? sealSecret(box, input.token) : keep;
    if (!secret) throw badRequest('token: required');
  }
  if (kind === 'telegram') {
    target = input.chat_id ?? (current?.kind === kind ? current.target : '');
    if (!target) throw badRequest('chat_id: required');
  }
  if (kind === 'gotify') {
    target = input.server_url ?? (current?.kind === kind ? current.target : '');
    if (!target) throw badRequest('server_url: required');
    const problem = outgoingUrlProblem(target);
    if (problem) throw badRequest(`server_url: ${problem}`);
  }
  if (kind === 'email') {
    const emails = input.emails ?? (current?.kind === kind && current.target ? current.target.split(',') : []);
    if (!emails.length) throw badRequest('emails: required');
    target = [...new Set(emails)].join(',');
  }
  return { kind, name: input.name, active: input.active === undefined ? current?.active ?? 1 : toFlag(input.active), target, secret };
}

/** Validates and stores a new channel. */
export async function createAlertChannel(tx: Tx, box: SecretBox, actor: Actor, input: AlertChannelInput): Promise<AlertChannelRow> {
  const values = channelValues(box, input);
  const row = await tx.insertInto('alert_channel').values({ project_id: actor.projectId, ...values, created: now() }).returningAll().executeTakeFirstOrThrow();
  await recordChannelEvent(tx, actor, row, 'created');
  return row;
}

/** Replaces a channel's values (its secret only when a new one is given). */
export async function updateAlertChannel(tx: Tx, box: SecretBox, actor: Actor, id: number, input: AlertChannelInput): Promise<void> {
  const current = await findAlertChannel(tx, actor.projectId, id);
  const values = channelValues(box, input, current);
  await tx.updateTable('alert_channel').set(values).where('id', '=', id).execute();
  await recordChannelEvent(tx, actor, { id, name: values.name }, 'updated');
}

/**
 * Deletes a channel. A template that chose it keeps its other channels; one that chose only
 * this one is refused first, so that it does not silently fall back to all channels.
 */
export async function deleteAlertChannel(tx: Tx, actor: Actor, id: number): Promise<void> {
  const existing = await findAlertChannel(tx, actor.projectId, id);
  const onlyChoice = await tx.selectFrom('template_alert_channel as mine')
    .innerJoin('template', 'template.id', 'mine.template_id')
    .select('template.name')
    .where('mine.channel_id', '=', id)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('template_alert_channel as other').select('other.channel_id')
      .whereRef('other.template_id', '=', 'mine.template_id').where('other.channel_id', '!=', id))))
    .executeTakeFirst();
  if (onlyChoice) throw badRequest(`the template "${onlyChoice.name}" sends its alerts only to this channel; choose other channels for it first`);
  await tx.deleteFrom('alert_channel').where('id', '=', id).execute();
  await recordChannelEvent(tx, actor, existing, 'deleted');
}

function recordChannelEvent(tx: Tx, actor: Actor, row: Pick<AlertChannelRow, 'id' | 'name'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'alert_channel', objectId: row.id, objectName: row.name,
    description: `Alert channel ${row.name} ${verb}`,
  });
}

/**
 * The template's chosen channels after checking each belongs to the project (none = all).
 * @example await setTemplateAlertChannels(tx, projectId, templateId, [3, 4]);
 */
export async function checkAlertChannelIds(db: Db | Tx, projectId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = await db.selectFrom('alert_channel').select('id').where('project_id', '=', projectId).where('id', 'in', unique).execute();
  const known = new Set(found.map((r) => r.id));
  const missing = unique.find((id) => !known.has(id));
  if (missing !== undefined) throw badRequest(`alert_channel_ids: no alert channel ${missing} in this project`);
  return unique;
}

/** Replaces the channels a template chose. */
export async function setTemplateAlertChannels(tx: Tx, templateId: number, ids: number[]): Promise<void> {
  await tx.deleteFrom('template_alert_channel').where('template_id', '=', templateId).execute();
  if (ids.length) await tx.insertInto('template_alert_channel').values(ids.map((channel_id) => ({ template_id: templateId, channel_id }))).execute();
}

/** The channels each template chose, by template id. */
export async function templateAlertChannelIds(db: Db | Tx, templateIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!templateIds.length) return out;
  const rows = await db.selectFrom('template_alert_channel').select(['template_id', 'channel_id'])
    .where('template_id', 'in', templateIds).orderBy('channel_id').execute();
  for (const row of rows) out.set(row.template_id, [...(out.get(row.template_id) ?? []), row.channel_id]);
  return out;
}
