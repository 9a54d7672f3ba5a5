import type { Config } from '../config/config.ts';
import { sendEmail } from './send-email.ts';

export interface InviteMail { to: string; token: string; projectName: string; role: string; inviterName: string; expiresAt: string | null }

/** The page where the invitee accepts or declines; the token travels in the link. */
export function inviteLink(webHost: string, token: string): string {
  return `${webHost.replace(/\/+$/, '')}/invites?token=${encodeURIComponent(token)}`;
}

/**
 * Mails the invitation through the configured SMTP server (`email_alert` on and `email_host`
 * set); answers false when mail is not configured. The link carries the one-time token.
 * @example await mailInvite(config, { to: 'ann@example.com', token, projectName: 'Web', role: 'manager', inviterName: 'Admin', expiresAt: null });
 */
export async function mailInvite(config: Config, mail: InviteMail): Promise<boolean> {
  const settings = config.alerts.email;
  if (!settings.enabled || !settings.host || !mail.to) return false;
  await sendEmail(settings, {
    to: [mail.to],
    subject: `Invitation to the project '${mail.projectName}'`,
    text: [
      `${mail.inviterName} invited you to the project '${mail.projectName}' as ${mail.role}.`, '',
      `Accept or decline: ${inviteLink(config.web_host, mail.token)}`,
      ...(mail.expiresAt ? [`The invitation expires on ${mail.expiresAt}.`] : []),
    ].join('\n'),
  });
  return true;
}
