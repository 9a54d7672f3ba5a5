import type { Db, Tx } from '../../db/database.ts';
import type { WorkflowApprovalRow, WorkflowRunNodeRow, WorkflowRunRow } from '../../db/schema.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';
import { taskRowToTask } from '../tasks/task.ts';
import type { WorkflowDefinition } from './workflow.ts';

/** A run as the API shows it (Semaphore's WorkflowRun, plus who started it, its version and the definition's name). */
export function runToApi(run: WorkflowRunRow, rootTaskId: number | null = null) {
  return {
    id: run.id, project_id: run.project_id, workflow_template_id: run.workflow_id, status: run.status, created: run.created,
    start: run.start, end: run.end, root_task_id: rootTaskId, user_id: run.user_id, version: run.version, version_id: run.version_id,
  };
}

export function approvalToApi(row: WorkflowApprovalRow) {
  return {
    id: row.id, project_id: row.project_id, workflow_run_id: row.run_id, workflow_node_id: row.node_id, status: row.status,
    created: row.created, resolved: row.resolved, resolved_by_user_id: row.resolved_by_user_id, comment: row.comment,
  };
}

export function runDefinition(run: WorkflowRunRow): WorkflowDefinition {
  return parseJsonColumn<WorkflowDefinition>(run.definition, { name: '', description: '', start_version: null, nodes: [], edges: [] });
}

/** The run's start node's task, if it started one. */
function rootTaskOf(definition: WorkflowDefinition, rows: WorkflowRunNodeRow[]): number | null {
  const start = definition.nodes.find((n) => n.kind !== 'note' && !definition.edges.some((e) => e.destination_node_id === n.id));
  return rows.find((r) => r.node_id === start?.id)?.task_id ?? null;
}

/** Runs of a workflow, newest first. */
export async function listRuns(db: Db | Tx, workflowId: number, limit = 100) {
  const runs = await db.selectFrom('workflow_run').selectAll().where('workflow_id', '=', workflowId).orderBy('id', 'desc').limit(limit).execute();
  return Promise.all(runs.map(async (run) => {
    const rows = await db.selectFrom('workflow_run_node').selectAll().where('run_id', '=', run.id).execute();
    return runToApi(run, rootTaskOf(runDefinition(run), rows));
  }));
}

/**
 * Semaphore's WorkflowRunDetails: the run and, per node of its graph, the node, its task and
 * its approval; beyond Semaphore each entry has the node's `state` (status, times, delay or
 * approval deadline, outputs) and the run its `edges` and `history`.
 */
export async function runDetails(db: Db | Tx, run: WorkflowRunRow) {
  const definition = runDefinition(run);
  const rows = await db.selectFrom('workflow_run_node').selectAll().where('run_id', '=', run.id).execute();
  const approvals = await db.selectFrom('workflow_approval').selectAll().where('run_id', '=', run.id).execute();
  const taskIds = rows.map((r) => r.task_id).filter((id): id is number => id !== null);
  const tasks = taskIds.length ? await db.selectFrom('task').selectAll().where('id', 'in', taskIds).execute() : [];
  const history = await db.selectFrom('workflow_run_history').leftJoin('user', 'user.id', 'workflow_run_history.user_id')
    .select(['workflow_run_history.id', 'workflow_run_history.node_id', 'workflow_run_history.user_id', 'user.username', 'workflow_run_history.kind', 'workflow_run_history.message', 'workflow_run_history.created'])
    .where('run_id', '=', run.id).orderBy('workflow_run_history.id').execute();
  const nodes = definition.nodes.map((node) => {
    const row = rows.find((r) => r.node_id === node.id);
    const task = tasks.find((t) => t.id === row?.task_id);
    const approval = approvals.find((a) => a.node_id === node.id);
    return {
      node, task: task ? taskRowToTask(task) : null, approval: approval ? approvalToApi(approval) : null,
      state: row ? {
        status: row.status, start: row.start, end: row.end, due: row.due, reason: row.reason,
        outputs: parseJsonColumn<Record<string, unknown> | null>(row.outputs, null),
      } : { status: 'pending', start: null, end: null, due: null, reason: '', outputs: null },
    };
  });
  return { run: runToApi(run, rootTaskOf(definition, rows)), nodes, edges: definition.edges, history, workflow_name: definition.name };
}

/** Every task node's outputs merged, in graph order (later nodes win a shared name). */
export async function runArtifacts(db: Db | Tx, run: WorkflowRunRow): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('workflow_run_node').select(['outputs', 'kind']).where('run_id', '=', run.id).where('kind', '=', 'task').orderBy('id').execute();
  const merged: Record<string, unknown> = {};
  for (const row of rows) Object.assign(merged, parseJsonColumn<Record<string, unknown>>(row.outputs, {}));
  return merged;
}

/** A task's stored outputs and what was not captured, for the task dialog's Outputs table. */
export async function taskOutputs(db: Db | Tx, taskId: number): Promise<{ outputs: Record<string, unknown>; not_captured: unknown[] }> {
  const row = await db.selectFrom('task_output_value').selectAll().where('task_id', '=', taskId).executeTakeFirst();
  return { outputs: parseJsonColumn(row?.outputs, {}), not_captured: parseJsonColumn(row?.not_captured, []) };
}

/** The project's workflow gates waiting for a decision, oldest first, each with the workflow it belongs to. */
export async function pendingApprovals(db: Db, projectId: number) {
  const rows = await db.selectFrom('workflow_approval').innerJoin('workflow_run', 'workflow_run.id', 'workflow_approval.run_id')
    .selectAll('workflow_approval').select('workflow_run.workflow_id')
    .where('workflow_approval.project_id', '=', projectId).where('workflow_approval.status', '=', 'pending')
    .orderBy('workflow_approval.id').execute();
  return rows.map((row) => ({ ...approvalToApi(row), workflow_id: row.workflow_id }));
}
