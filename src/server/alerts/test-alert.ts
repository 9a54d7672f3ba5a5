import type { ConnectionOptions } from 'node:tls';
import type { Deps } from '../deps.ts';
import { deliverAlert } from './alerts.ts';
import type { ChannelResult } from './channel-send.ts';
import type { TaskAlert } from './task-alert.ts';

/** The project and the user a test alert names. */
export interface TestAlertSubject {
  project: { id: number; name: string; alert_chat: string | null };
  user: { name: string; username: string };
}

/**
 * `POST /api/project/{id}/notifications/test`: a test alert through every alert channel the
 * server has enabled (chats, webhook, and email to the project's members who asked for alerts),
 * with the project's own alert chat (the route checks that the project's alerts are on).
 * Answers how each channel took it; an empty list when no channel is enabled.
 * @example const results = await sendTestAlert(deps, { project, user });
 */
export async function sendTestAlert(deps: Deps, subject: TestAlertSubject, smtpTls?: ConnectionOptions): Promise<ChannelResult[]> {
  const { project, user } = subject;
  const alert: TaskAlert = {
    projectId: project.id, projectName: project.name, templateId: 0, templateName: 'Test alert', taskId: 0, status: 'success',
    author: user.name || user.username, message: 'This is a test alert from Signalbox: alerts of this project reach this channel.',
    version: '', url: `${deps.config.web_host.replace(/\/+$/, '')}/project/${project.id}/settings`, chat: project.alert_chat || null,
  };
  return deliverAlert(deps, alert, true, smtpTls);
}
