import type { AlertSettings } from '../config/config.ts';
import { alertHeadline, type TaskAlert } from './task-alert.ts';
import { ownValue } from '../lib/own-value.ts';
import type { ChatKind } from '../domain/alert-channels/alert-channel.ts';
import { entityText, markdownText, mentionFreeText } from './alert-text.ts';

/** One HTTP POST to a chat service. `name` is for the log. */
export interface ChatRequest {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const COLORS: Record<string, string> = { success: '#2e7d32', error: '#c62828', waiting_confirmation: '#f9a825' };

/** Where one chat channel posts: a webhook `url`, or a service `url` plus `token`, and Telegram's `chat`. */
export interface ChatTarget { url: string; token?: string; chat?: string }

/**
 * The requests for every enabled chat channel of the server settings (skipping those without
 * their URL or token), each built by `chatRequest`. A project's `alert_chat` overrides the
 * Telegram chat.
 * @example for (const r of chatRequests(config.alerts, alert)) await fetch(r.url, ...);
 */
export function chatRequests(settings: AlertSettings, alert: TaskAlert): ChatRequest[] {
  const { telegram, slack, rocketchat, microsoft_teams: teams, dingtalk, gotify, webhook } = settings;
  const chat = alert.chat || telegram.chat;
  const targets: [ChatKind, ChatTarget | null][] = [
    ['telegram', telegram.enabled && telegram.token && chat ? { url: telegram.api_url, token: telegram.token, chat } : null],
    ['slack', slack.enabled && slack.url ? { url: slack.url } : null],
    ['rocketchat', rocketchat.enabled && rocketchat.url ? { url: rocketchat.url } : null],
    ['microsoft_teams', teams.enabled && teams.url ? { url: teams.url } : null],
    ['dingtalk', dingtalk.enabled && dingtalk.url ? { url: dingtalk.url } : null],
    ['gotify', gotify.enabled && gotify.url && gotify.token ? { url: gotify.url, token: gotify.token } : null],
    ['webhook', webhook.enabled && webhook.url ? { url: webhook.url } : null],
  ];
  return targets.flatMap(([kind, target]) => (target ? [chatRequest(kind, target, alert)] : []));
}

/**
 * One chat channel's request, at the service's documented endpoint and body shape (Telegram Bot
 * API sendMessage at `url` + `/bot<token>`, Slack/Rocket.Chat incoming webhooks, a Teams
 * workflow webhook with an Adaptive Card, DingTalk robot markdown, Gotify `/message` with its
 * app token, and a plain JSON webhook). Names, messages and versions are escaped for each
 * channel's markup (alert-text.ts), so they always show as plain text.
 * @example chatRequest('slack', { url: 'https://hooks.slack.com/services/…' }, alert)
 */
export function chatRequest(kind: ChatKind, target: ChatTarget, alert: TaskAlert): ChatRequest {
  const json = { 'content-type': 'application/json' };
  const color = ownValue(COLORS, alert.status) ?? '#616161';
  const facts: [string, string][] = [
    ['Project', alert.projectName], ['Template', alert.templateName], ['Task', `#${alert.taskId}`], ['Status', alert.status], ['Author', alert.author],
    ...(alert.version ? [['Version', alert.version] as [string, string]] : []),
  ];
  const markdown = [`**${markdownText(alertHeadline(alert))}**`, ...facts.map(([k, v]) => `${k}: ${markdownText(v)}`), `[Open the task log](${alert.url})`].join('  \n');
  const attachment = (escape: (text: string) => string) => ({
    title: escape(`${alert.projectName} / ${alert.templateName}`), title_link: alert.url, text: escape(`Task #${alert.taskId}: ${alert.status}`), color,
  });
  const rocketText = (text: string) => mentionFreeText(markdownText(text));
  const { url } = target;
  switch (kind) {
    case 'telegram': return {
      name: kind, url: `${url.replace(/\/+$/, '')}/bot${target.token ?? ''}/sendMessage`, headers: json,
      body: { chat_id: target.chat ?? '', parse_mode: 'HTML', text: [`<b>${entityText(alertHeadline(alert))}</b>`, ...(alert.message ? [entityText(alert.message)] : []), entityText(alert.url)].join('\n') },
    };
    case 'slack': return { name: kind, url, headers: json, body: {
      text: entityText(alertHeadline(alert)),
      attachments: [{ ...attachment(entityText), fields: facts.slice(3).map(([title, value]) => ({ title, value: entityText(value), short: true })) }],
    } };
    case 'rocketchat': return { name: kind, url, headers: json, body: { text: rocketText(alertHeadline(alert)), attachments: [attachment(rocketText)] } };
    case 'microsoft_teams': return { name: kind, url, headers: json, body: { type: 'message', attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4',
        // Adaptive Cards render a markdown subset in TextBlock and FactSet values (links, emphasis).
        body: [{ type: 'TextBlock', weight: 'Bolder', wrap: true, text: markdownText(alertHeadline(alert)) }, { type: 'FactSet', facts: facts.map(([title, value]) => ({ title, value: markdownText(value) })) }],
        actions: [{ type: 'Action.OpenUrl', title: 'Open the task log', url: alert.url }],
      },
    }] } };
    case 'dingtalk': return { name: kind, url, headers: json, body: { msgtype: 'markdown', markdown: { title: alertHeadline(alert), text: markdown } } };
    case 'gotify': return { name: kind, url: `${url.replace(/\/+$/, '')}/message`, headers: { ...json, 'x-gotify-key': target.token ?? '' }, body: {
      title: alertHeadline(alert), message: markdown, priority: alert.status === 'error' ? 8 : 4,
      extras: { 'client::display': { contentType: 'text/markdown' } },
    } };
    case 'webhook': return { name: kind, url, headers: json, body: {
      event: 'task_status', status: alert.status, ...(alert.fixed ? { fixed: true } : {}), url: alert.url, author: alert.author,
      project: { id: alert.projectId, name: alert.projectName }, template: { id: alert.templateId, name: alert.templateName },
      task: { id: alert.taskId, status: alert.status, message: alert.message, version: alert.version || null },
    } };
  }
}
