import type { RunnerRow, TaskRow } from '../../db/schema.ts';
import { postOutgoing } from '../../lib/outgoing-http.ts';

/** How long a runner's webhook may take before Signalbox stops waiting. */
export const RUNNER_WEBHOOK_TIMEOUT_MS = 5000;

/**
 * Tells a runner's webhook (autoscaling hooks) that a task starts on it or finished:
 * `POST {action, project_id, task_id, template_id, runner_id}` through the outgoing-HTTP client
 * (no redirects followed). Never throws; a failure is logged.
 * @example void callRunnerWebhook(runner, task, 'start');
 */
export async function callRunnerWebhook(runner: Pick<RunnerRow, 'id' | 'webhook'>, task: Pick<TaskRow, 'id' | 'project_id' | 'template_id'>, action: 'start' | 'finish'): Promise<void> {
  if (!runner.webhook) return;
  try {
    const body = JSON.stringify({ action, project_id: task.project_id, task_id: task.id, template_id: task.template_id, runner_id: runner.id });
    const { status } = await postOutgoing(runner.webhook, { 'content-type': 'application/json' }, body, RUNNER_WEBHOOK_TIMEOUT_MS);
    if (status < 200 || status >= 300) console.warn(`[runners] webhook of runner ${runner.id} answered ${status} (${action} task ${task.id})`);
  } catch (err) {
    console.warn(`[runners] webhook of runner ${runner.id} failed (${action} task ${task.id}): ${(err as Error).message}`);
  }
}
