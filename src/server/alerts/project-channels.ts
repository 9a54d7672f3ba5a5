import type { ConnectionOptions } from 'node:tls';
import type { Deps } from '../deps.ts';
import { openSecret } from '../crypto/sealed-secret.ts';
import type { AlertChannelRow } from '../domain/alert-channels/alert-channel.ts';
import { URL_KINDS, type ChatKind } from '../domain/alert-channels/alert-channel.ts';
import { chatRequest, type ChatTarget } from './chat-requests.ts';
import { sendAlertEmail } from './send-email.ts';
import type { TaskAlert } from './task-alert.ts';
import { attempt, postChat, type ChannelResult } from './channel-send.ts';

/**
 * Sends `alert` through one of a project's alert channels: a chat service with the channel's
 * own URL or token (opened only here, never logged), or mail through the server's SMTP
 * settings to the channel's addresses. Never throws: the result says how it went.
 * @example const result = await sendToProjectChannel(deps, channel, alert);
 */
export function sendToProjectChannel(deps: Deps, channel: AlertChannelRow, alert: TaskAlert, smtpTls?: ConnectionOptions): Promise<ChannelResult> {
  return attempt(`${channel.kind} "${channel.name}"`, async () => {
    let secret: string;
    try {
      secret = openSecret(deps.secrets, channel.secret) ?? '';
    } catch {
      throw new Error('the channel\'s secret cannot be read (was the encryption key changed?); save it again');
    }
    if (channel.kind === 'email') {
      const { email } = deps.config.alerts;
      if (!email.host) throw new Error('mail is not set up on this server (email_host)');
      await sendAlertEmail(email, alert, channel.target.split(',').filter(Boolean), smtpTls);
      return;
    }
    const kind = channel.kind as ChatKind;
    const target: ChatTarget = URL_KINDS.has(kind) ? { url: secret }
      : kind === 'telegram' ? { url: deps.config.alerts.telegram.api_url, token: secret, chat: channel.target }
      : { url: channel.target, token: secret };
    await postChat(chatRequest(kind, target, alert));
  });
}

/**
 * Sends `alert` to the project's active channels (those in `channelIds`, or all when empty);
 * mail channels only when `email` (approvals go to chats, as the server's own alerts do).
 * @example const results = await deliverToProjectChannels(deps, alert, [], true);
 */
export async function deliverToProjectChannels(deps: Deps, alert: TaskAlert, channelIds: number[], email: boolean, smtpTls?: ConnectionOptions): Promise<ChannelResult[]> {
  let query = deps.db.selectFrom('alert_channel').selectAll().where('project_id', '=', alert.projectId).where('active', '=', 1);
  if (channelIds.length) query = query.where('id', 'in', channelIds);
  const channels = (await query.orderBy('id').execute()).filter((c) => email || c.kind !== 'email');
  return Promise.all(channels.map((channel) => sendToProjectChannel(deps, channel, alert, smtpTls)));
}
