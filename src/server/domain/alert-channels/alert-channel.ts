import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { AlertChannelTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';

export type AlertChannelRow = Selectable<AlertChannelTable>;

/** The chat services an alert can go to, by the names the server settings use. */
export const CHAT_KINDS = ['telegram', 'slack', 'rocketchat', 'microsoft_teams', 'dingtalk', 'gotify', 'webhook'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

/** Every kind of project alert channel: mail through the server's SMTP settings, and each chat service alerts know. */
export const ALERT_CHANNEL_KINDS = ['email', ...CHAT_KINDS] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

/** Kinds whose whole webhook URL is the secret (it carries the token). */
export const URL_KINDS: ReadonlySet<string> = new Set<ChatKind>(['slack', 'rocketchat', 'microsoft_teams', 'dingtalk', 'webhook']);
/** Kinds with a separate token (the secret) beside a plain target. */
export const TOKEN_KINDS: ReadonlySet<string> = new Set<ChatKind>(['telegram', 'gotify']);

/** Body of POST/PUT `/alert-channels`. `url` and `token` are write-only: empty or left out on update keeps the stored one. */
export const alertChannelInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().nullable().optional(),
  kind: z.enum(ALERT_CHANNEL_KINDS, { error: `must be one of ${ALERT_CHANNEL_KINDS.join(', ')}` }),
  name: fields.name,
  active: z.boolean().optional(),
  url: z.string().trim().max(2048, 'at most 2048 characters').optional()
    .meta({ description: 'Write-only. The webhook URL (slack, rocketchat, microsoft_teams, dingtalk, webhook); empty keeps the stored one' }),
  token: z.string().trim().max(1024, 'at most 1024 characters').optional()
    .meta({ description: 'Write-only. The bot token (telegram) or app token (gotify); empty keeps the stored one' }),
  chat_id: z.string().trim().max(255, 'at most 255 characters').optional().meta({ description: 'telegram: the chat to post to' }),
  server_url: z.string().trim().max(2048, 'at most 2048 characters').optional().meta({ description: 'gotify: the server address' }),
  emails: z.array(z.email('must be an email address').max(254, 'at most 254 characters')).max(50, 'at most 50 addresses').optional()
    .meta({ description: 'email: where alerts are mailed (through the server\'s SMTP settings)' }),
});
export type AlertChannelInput = z.infer<typeof alertChannelInputSchema>;

/** A channel as the API shows it: never its URL or token, only whether one is stored. */
export interface AlertChannel {
  id: number;
  project_id: number;
  kind: AlertChannelKind;
  name: string;
  active: boolean;
  url_set: boolean;
  token_set: boolean;
  chat_id: string;
  server_url: string;
  emails: string[];
  created: string;
}

/** Maps a row to the API shape. */
export function alertChannelRowToAlertChannel(row: AlertChannelRow): AlertChannel {
  const kind = row.kind as AlertChannelKind;
  const secretSet = row.secret !== null && row.secret !== '';
  return {
    id: row.id, project_id: row.project_id, kind, name: row.name, active: Boolean(row.active),
    url_set: URL_KINDS.has(kind) && secretSet, token_set: TOKEN_KINDS.has(kind) && secretSet,
    chat_id: kind === 'telegram' ? row.target : '', server_url: kind === 'gotify' ? row.target : '',
    emails: kind === 'email' && row.target ? row.target.split(',') : [], created: row.created,
  };
}
