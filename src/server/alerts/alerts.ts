import type { ConnectionOptions } from 'node:tls';
import type { Deps } from '../deps.ts';
import { alertRecipients, loadTaskAlert, type TaskAlert } from './task-alert.ts';
import { chatRequests } from './chat-requests.ts';
import { sendAlertEmail } from './send-email.ts';
import { loadApprovalAlert } from './approval-alert.ts';
import { deliverToProjectChannels } from './project-channels.ts';
import { attempt, postChat, type ChannelResult } from './channel-send.ts';

export interface AlertOptions {
  log?: (line: string) => void;
  /** extra TLS options for SMTP (a private CA) */
  smtpTls?: ConnectionOptions;
}

/**
 * Sends alerts when tasks reach success, error or waiting_confirmation, listening to the
 * engine's bus `update`s. Each channel is tried on its own; a failing one is logged and
 * changes nothing else: the task has already ended. Returns the unsubscribe function and a way
 * to wait for the sends in flight (shutdown, tests).
 * @example const alerts = startAlerts(deps); ... alerts.stop();
 */
export function startAlerts(deps: Deps, options: AlertOptions = {}): { stop: () => void; settled: () => Promise<void> } {
  const log = options.log ?? ((line: string) => console.warn(`[alerts] ${line}`));
  const inFlight = new Set<Promise<void>>();
  const track = (sending: Promise<void>) => {
    const settled = sending.finally(() => inFlight.delete(settled));
    inFlight.add(settled);
  };
  const unsubscribe = deps.bus.subscribeLocal((message) => {
    if (message.type === 'workflow' && message.status === APPROVAL_REQUESTED) {
      track(sendApprovalAlerts(deps, message.run_id).catch((err) => log(`workflow run ${message.run_id}: alerts failed: ${(err as Error).message}`)));
    }
    if (message.type !== 'update') return;
    track(sendTaskAlerts(deps, message.task_id, message.status, log, options.smtpTls)
      .catch((err) => log(`task ${message.task_id}: alerts failed: ${(err as Error).message}`)));
  });
  return { stop: unsubscribe, settled: async () => { while (inFlight.size) await Promise.all([...inFlight]); } };
}

/** The status a run's bus message carries when one of its approval nodes starts waiting. */
export const APPROVAL_REQUESTED = 'approval_requested';

/** A waiting approval goes to the chat channels with a link to the run page (email stays for failures). */
async function sendApprovalAlerts(deps: Deps, runId: number): Promise<void> {
  const plan = await loadApprovalAlert(deps.db, deps.config.web_host, runId);
  if (!plan) return;
  const { alert } = plan;
  const results = await Promise.all([
    ...(plan.server ? chatRequests(deps.config.alerts, alert).map((request) => attempt(request.name, () => postChat(request))) : []),
    deliverToProjectChannels(deps, alert, plan.channelIds, false),
  ]);
  for (const result of results.flat()) if (!result.ok) console.warn(`[alerts] run ${runId}: ${result.name} approval alert failed: ${result.error}`);
}

async function sendTaskAlerts(deps: Deps, taskId: number, status: string, log: (line: string) => void, smtpTls?: ConnectionOptions): Promise<void> {
  const plan = await loadTaskAlert(deps.db, deps.config.web_host, taskId, status);
  if (!plan) return;
  const { alert } = plan;
  const results = await Promise.all([
    plan.server ? deliverAlert(deps, alert, status === 'error', smtpTls) : [],
    // a project's own mail channels were set up to hear every outcome the template's choice lets through
    deliverToProjectChannels(deps, alert, plan.channelIds, true, smtpTls),
  ]);
  for (const result of results.flat()) {
    if (!result.ok) log(`task ${alert.taskId}: ${result.name} alert failed: ${result.error}`);
  }
}

/**
 * Sends `alert` through every enabled chat channel and, when `email` is true and mail is on, to
 * the project's members who asked for alerts. Each channel is tried on its own; none throws.
 * @example const results = await deliverAlert(deps, alert, true);
 */
export async function deliverAlert(deps: Deps, alert: TaskAlert, email: boolean, smtpTls?: ConnectionOptions): Promise<ChannelResult[]> {
  const { alerts } = deps.config;
  const sends = chatRequests(alerts, alert).map((request) => attempt(request.name, () => postChat(request)));
  if (email && alerts.email.enabled) {
    const to = await alertRecipients(deps.db, alert.projectId);
    sends.push(attempt('email', () => sendAlertEmail(alerts.email, alert, to, smtpTls)));
  }
  return Promise.all(sends);
}
