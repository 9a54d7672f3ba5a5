import type { Db } from '../db/database.ts';

/** What every alert says about a task that reached a notifiable status. */
export interface TaskAlert {
  projectId: number;
  projectName: string;
  templateId: number;
  templateName: string;
  taskId: number;
  status: string;
  /** who started it; `—` for schedules, webhooks and autorun */
  author: string;
  message: string;
  version: string;
  /** the task log in the console */
  url: string;
  /** project `alert_chat`: overrides the Telegram chat */
  chat: string | null;
  /** a success alerting only because the task before it failed (alert choice `fixed`) */
  fixed?: boolean;
}

/** Statuses alerts are sent for (reference §5: success, error, waiting_confirmation). */
export const ALERT_STATUSES = ['success', 'error', 'waiting_confirmation'];

/** Where one task's alert goes: the server's channels (when the project's `alert` is on) and the project's channels. */
export interface TaskAlertPlan {
  alert: TaskAlert;
  /** the server-configured channels and member mail: Semaphore's project `alert` switch */
  server: boolean;
  /** the project channels the template chose; empty = all of the project's active channels */
  channelIds: number[];
}

/**
 * Loads what the alert needs, or null when this task should not alert: the template mutes this
 * outcome (its alert choice, stored as `suppress_success_alerts`/`suppress_error_alerts`, with
 * `alert_fixed` letting the first success after a failure through), or the project's alerts
 * are off and it has no alert channel of its own.
 * @example const plan = await loadTaskAlert(db, config.web_host, taskId, 'error');
 */
export async function loadTaskAlert(db: Db, webHost: string, taskId: number, status: string): Promise<TaskAlertPlan | null> {
  if (!ALERT_STATUSES.includes(status)) return null;
  const row = await db.selectFrom('task')
    .innerJoin('template', 'template.id', 'task.template_id')
    .innerJoin('project', 'project.id', 'task.project_id')
    .leftJoin('user', 'user.id', 'task.user_id')
    .select([
      'task.id', 'task.message', 'task.version', 'task.project_id', 'task.template_id', 'template.name as template_name',
      'template.suppress_success_alerts', 'template.suppress_error_alerts', 'template.alert_fixed', 'project.name as project_name', 'project.alert', 'project.alert_chat', 'user.name as author',
    ])
    .where('task.id', '=', taskId).executeTakeFirst();
  if (!row) return null;
  const fixed = status === 'success' && row.suppress_success_alerts && row.alert_fixed ? await followsFailure(db, row.template_id, row.id) : false;
  if (status === 'success' && row.suppress_success_alerts && !fixed) return null;
  if (status === 'error' && row.suppress_error_alerts) return null;
  const chosen = await db.selectFrom('template_alert_channel').select('channel_id').where('template_id', '=', row.template_id).execute();
  return {
    alert: {
      projectId: row.project_id, projectName: row.project_name, templateId: row.template_id, templateName: row.template_name,
      taskId: row.id, status, author: row.author ?? '—', message: row.message, version: row.version ?? '',
      url: `${webHost.replace(/\/+$/, '')}/project/${row.project_id}/templates/${row.template_id}?t=${row.id}`,
      chat: row.alert_chat || null,
      ...(fixed ? { fixed: true } : {}),
    },
    server: Boolean(row.alert),
    channelIds: chosen.map((r) => r.channel_id),
  };
}

/** Whether the template's last task to succeed or fail before `taskId` failed. */
async function followsFailure(db: Db, templateId: number, taskId: number): Promise<boolean> {
  const previous = await db.selectFrom('task').select('status').where('template_id', '=', templateId).where('id', '<', taskId)
    .where('status', 'in', ['success', 'error']).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return previous?.status === 'error';
}

/** Members of the project who asked for alerts (user `alert`) and have an email address. */
export async function alertRecipients(db: Db, projectId: number): Promise<string[]> {
  const rows = await db.selectFrom('project_user').innerJoin('user', 'user.id', 'project_user.user_id')
    .select('user.email').where('project_user.project_id', '=', projectId).where('user.alert', '=', 1).where('user.email', '!=', '').execute();
  return rows.map((r) => r.email);
}

/** One line naming everything: `Project / Template: task #12 error by Alice`. */
export function alertHeadline(alert: TaskAlert): string {
  return `${alert.projectName} / ${alert.templateName}: task #${alert.taskId} ${alert.status.toUpperCase()}${alert.fixed ? ' (fixed)' : ''} by ${alert.author}`;
}
