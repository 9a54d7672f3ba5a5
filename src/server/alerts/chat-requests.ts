import type { AlertSettings } from '../config/config.ts';
import { alertHeadline, type TaskAlert } from './task-alert.ts';
import { ownValue } from '../lib/own-value.ts';
import { entityText, markdownText, mentionFreeText } from './alert-text.ts';

/** One HTTP POST to a chat service. `name` is for the log. */
export interface ChatRequest {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const COLORS: Record<string, string> = { success: '#2e7d32', error: '#c62828', waiting_confirmation: '#f9a825' };

/**
 * The requests for every enabled chat channel, each at the service's documented endpoint and
 * body shape (Telegram Bot API sendMessage, Slack/Rocket.Chat incoming webhooks, a Teams
 * workflow webhook with an Adaptive Card, DingTalk robot markdown, Gotify /message, and a plain
 * JSON webhook). Channels without their URL or token are skipped. Names, messages and versions
 * are escaped for each channel's markup (alert-text.ts), so they always show as plain text.
 * @example for (const r of chatRequests(config.alerts, alert)) await fetch(r.url, ...);
 */
export function chatRequests(settings: AlertSettings, alert: TaskAlert): ChatRequest[] {
  const out: ChatRequest[] = [];
  const json = { 'content-type': 'application/json' };
  const color = ownValue(COLORS, alert.status) ?? '#616161';
  const facts: [string, string][] = [
    ['Project', alert.projectName], ['Template', alert.templateName], ['Task', `#${alert.taskId}`], ['Status', alert.status], ['Author', alert.author],
    ...(alert.version ? [['Version', alert.version] as [string, string]] : []),
  ];
  const markdown = [`**${markdownText(alertHeadline(alert))}**`, ...facts.map(([k, v]) => `${k}: ${markdownText(v)}`), `[Open the task log](${alert.url})`].join('  \n');

  const { telegram, slack, rocketchat, microsoft_teams: teams, dingtalk, gotify, webhook } = settings;
  const chat = alert.chat || telegram.chat;
  if (telegram.enabled && telegram.token && chat) {
    out.push({
      name: 'telegram', url: `${telegram.api_url.replace(/\/+$/, '')}/bot${telegram.token}/sendMessage`, headers: json,
      body: { chat_id: chat, parse_mode: 'HTML', text: [`<b>${entityText(alertHeadline(alert))}</b>`, ...(alert.message ? [entityText(alert.message)] : []), entityText(alert.url)].join('\n') },
    });
  }
  const attachment = (escape: (text: string) => string) => ({
    title: escape(`${alert.projectName} / ${alert.templateName}`), title_link: alert.url, text: escape(`Task #${alert.taskId}: ${alert.status}`), color,
  });
  if (slack.enabled && slack.url) {
    out.push({ name: 'slack', url: slack.url, headers: json, body: {
      text: entityText(alertHeadline(alert)),
      attachments: [{ ...attachment(entityText), fields: facts.slice(3).map(([title, value]) => ({ title, value: entityText(value), short: true })) }],
    } });
  }
  const rocketText = (text: string) => mentionFreeText(markdownText(text));
  if (rocketchat.enabled && rocketchat.url) {
    out.push({ name: 'rocketchat', url: rocketchat.url, headers: json, body: { text: rocketText(alertHeadline(alert)), attachments: [attachment(rocketText)] } });
  }
  if (teams.enabled && teams.url) {
    out.push({ name: 'microsoft_teams', url: teams.url, headers: json, body: { type: 'message', attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4',
        // Adaptive Cards render a markdown subset in TextBlock and FactSet values (links, emphasis).
        body: [{ type: 'TextBlock', weight: 'Bolder', wrap: true, text: markdownText(alertHeadline(alert)) }, { type: 'FactSet', facts: facts.map(([title, value]) => ({ title, value: markdownText(value) })) }],
        actions: [{ type: 'Action.OpenUrl', title: 'Open the task log', url: alert.url }],
      },
    }] } });
  }
  if (dingtalk.enabled && dingtalk.url) {
    out.push({ name: 'dingtalk', url: dingtalk.url, headers: json, body: { msgtype: 'markdown', markdown: { title: alertHeadline(alert), text: markdown } } });
  }
  if (gotify.enabled && gotify.url && gotify.token) {
    out.push({ name: 'gotify', url: `${gotify.url.replace(/\/+$/, '')}/message`, headers: { ...json, 'x-gotify-key': gotify.token }, body: {
      title: alertHeadline(alert), message: markdown, priority: alert.status === 'error' ? 8 : 4,
      extras: { 'client::display': { contentType: 'text/markdown' } },
    } });
  }
  if (webhook.enabled && webhook.url) {
    out.push({ name: 'webhook', url: webhook.url, headers: json, body: {
      event: 'task_status', status: alert.status, url: alert.url, author: alert.author,
      project: { id: alert.projectId, name: alert.projectName }, template: { id: alert.templateId, name: alert.templateName },
      task: { id: alert.taskId, status: alert.status, message: alert.message, version: alert.version || null },
    } });
  }
  return out;
}
