import type { Db } from '../../db/database.ts';

/** What a task started by a workflow run knows of it. */
export interface WorkflowTaskContext {
  workflowId: number;
  runId: number;
  /** the run page in the console (empty without `web_host`) */
  url: string;
  /** the lines its log starts with: which output filled which survey variable */
  inputLines: string[];
}

/**
 * The workflow run a task belongs to, or null for a task no run started.
 * @example const flow = await workflowTaskContext(db, task.id, config.web_host);
 */
export async function workflowTaskContext(db: Db, taskId: number, webHost: string): Promise<WorkflowTaskContext | null> {
  const row = await db.selectFrom('workflow_run_node').innerJoin('workflow_run', 'workflow_run.id', 'workflow_run_node.run_id')
    .select(['workflow_run.id as run_id', 'workflow_run.workflow_id', 'workflow_run.project_id', 'workflow_run_node.input_log'])
    .where('workflow_run_node.task_id', '=', taskId).executeTakeFirst();
  if (!row) return null;
  return {
    workflowId: row.workflow_id, runId: row.run_id,
    url: webHost ? `${webHost.replace(/\/+$/, '')}/project/${row.project_id}/workflows/${row.workflow_id}/runs/${row.run_id}` : '',
    inputLines: row.input_log ? row.input_log.split('\n') : [],
  };
}

/** Stores the outputs a task produced (replacing any earlier ones). */
export async function saveTaskOutputs(db: Db, taskId: number, outputs: Record<string, unknown>, notCaptured: { name: string; reason: string }[] = []): Promise<void> {
  await db.deleteFrom('task_output_value').where('task_id', '=', taskId).execute();
  await db.insertInto('task_output_value').values({ task_id: taskId, outputs: JSON.stringify(outputs), not_captured: JSON.stringify(notCaptured) }).execute();
}
