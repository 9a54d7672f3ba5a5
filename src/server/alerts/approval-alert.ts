import type { Db } from '../db/database.ts';
import type { TaskAlertPlan } from './task-alert.ts';

/**
 * The alert announcing that a workflow run waits for an approval, in the shape every channel
 * already knows: the workflow stands where a template does, the run where a task does, status
 * `waiting_approval`, and the link goes to the run page, where the approval is decided. It goes
 * to all the project's alert channels, and to the server's when the project's alerts are on.
 * @example const alert = await loadApprovalAlert(db, config.web_host, runId);
 */
export async function loadApprovalAlert(db: Db, webHost: string, runId: number): Promise<TaskAlertPlan | null> {
  const row = await db.selectFrom('workflow_run')
    .innerJoin('workflow', 'workflow.id', 'workflow_run.workflow_id')
    .innerJoin('project', 'project.id', 'workflow_run.project_id')
    .leftJoin('user', 'user.id', 'workflow_run.user_id')
    .select(['workflow_run.id', 'workflow_run.project_id', 'workflow_run.workflow_id', 'workflow_run.version', 'workflow.name as workflow_name',
      'project.name as project_name', 'project.alert', 'project.alert_chat', 'user.name as author'])
    .where('workflow_run.id', '=', runId).executeTakeFirst();
  if (!row) return null;
  return { server: Boolean(row.alert), channelIds: [], alert: {
    projectId: row.project_id, projectName: row.project_name, templateId: row.workflow_id, templateName: `Workflow ${row.workflow_name}`,
    taskId: row.id, status: 'waiting_approval', author: row.author ?? '—', message: 'An approval is waiting', version: row.version ?? '',
    url: `${webHost.replace(/\/+$/, '')}/project/${row.project_id}/workflows/${row.workflow_id}/runs/${row.id}`,
    chat: row.alert_chat || null,
  } };
}
