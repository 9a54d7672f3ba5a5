import type { ConnectionOptions } from 'node:tls';
import type { AlertSettings } from '../config/config.ts';
import { alertHeadline, type TaskAlert } from './task-alert.ts';

/** One plain-text message. */
export interface EmailMessage { to: string[]; subject: string; text: string }

/**
 * Sends a message through the configured SMTP server: `email_tls` connects with TLS from the
 * start, `email_secure` requires STARTTLS, and a user name turns on SMTP authentication.
 * @example await sendEmail(config.alerts.email, { to: ['ops@example.com'], subject: 'Hi', text: 'Hello' });
 */
export async function sendEmail(settings: AlertSettings['email'], message: EmailMessage, tls: ConnectionOptions = {}): Promise<void> {
  if (!message.to.length) return;
  // loaded on first use: most servers never mail, and the package costs ~15 MB of memory
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: settings.host, port: settings.port, secure: settings.tls, requireTLS: settings.secure && !settings.tls,
    ignoreTLS: !settings.secure && !settings.tls,
    auth: settings.username ? { user: settings.username, pass: settings.password } : undefined,
    connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000, tls: { minVersion: 'TLSv1.2', ...tls },
  });
  try {
    await transport.sendMail({ from: settings.sender, ...message });
  } finally {
    transport.close();
  }
}

/**
 * Mails a failed task's alert to each recipient through the configured SMTP server.
 * @example await sendAlertEmail(config.alerts.email, alert, ['ops@example.com']);
 */
export async function sendAlertEmail(settings: AlertSettings['email'], alert: TaskAlert, to: string[], tls: ConnectionOptions = {}): Promise<void> {
  await sendEmail(settings, {
    to, subject: `Task '${alert.templateName}' ${alert.status === 'error' ? 'failed' : alert.status}`,
    text: [alertHeadline(alert), '', ...(alert.message ? [alert.message, ''] : []), ...(alert.version ? [`Version: ${alert.version}`] : []), `Task log: ${alert.url}`].join('\n'),
  }, tls);
}
