import type { Db } from '../../src/server/db/database.ts';
import { now } from '../../src/server/lib/time.ts';

/**
 * A workflow (approval → task of `templateId`) with its first version and a run waiting at the
 * approval, inserted straight into the database; plus a spare workflow with no runs (deletable).
 * @example const wf = await insertWorkflowRows(db, projectId, templateId); `/workflows/${wf.workflow}/runs/${wf.workflowRun}`
 */
export async function insertWorkflowRows(db: Db, projectId: number, templateId: number) {
  const workflow = await db.insertInto('workflow').values({ project_id: projectId, name: 'Release', description: '', start_version: null, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  const node = (kind: string, name: string, template: number | null) => db.insertInto('workflow_node').values({
    workflow_id: workflow.id, kind, name, template_id: template, convergence_mode: 'all', approval_timeout: 0, approval_message: '', approval_four_eyes: 0,
    delay_seconds: 0, note: '', task_params: '{}', pos_x: 0, pos_y: 0,
  }).returning('id').executeTakeFirstOrThrow();
  const approval = await node('approval', 'approve', null);
  const task = await node('task', 'deploy', templateId);
  const edge = await db.insertInto('workflow_edge').values({
    workflow_id: workflow.id, source_node_id: approval.id, destination_node_id: task.id, condition: 'on_success', input_mode: 'by_name', input_mappings: '[]',
  }).returning('id').executeTakeFirstOrThrow();
  const nodeJson = (id: number, kind: string, name: string, template: number | null) => ({
    id, workflow_template_id: workflow.id, kind, name, template_id: template, convergence_mode: 'all', approval_timeout: 0, approval_message: '',
    approval_four_eyes: false, delay_seconds: 0, note: '', task_params: {}, pos_x: 0, pos_y: 0,
  });
  const definition = JSON.stringify({
    name: 'Release', description: '', start_version: null,
    nodes: [nodeJson(approval.id, 'approval', 'approve', null), nodeJson(task.id, 'task', 'deploy', templateId)],
    edges: [{ id: edge.id, workflow_template_id: workflow.id, source_node_id: approval.id, destination_node_id: task.id, condition: 'on_success', input_mode: 'by_name', input_mappings: [] }],
  });
  await db.insertInto('workflow_version').values({
    workflow_id: workflow.id, version_number: 1, parent_version_id: null, restored_from_version_id: null, author_user_id: null, message: 'Created',
    content_fingerprint: 'fixture', definition, created: now(),
  }).execute();
  const run = await db.insertInto('workflow_run').values({
    project_id: projectId, workflow_id: workflow.id, version_id: null, definition, status: 'approval', user_id: null, version: null, created: now(), start: now(), end: null,
  }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('workflow_run_node').values({
    run_id: run.id, node_id: approval.id, kind: 'approval', status: 'approval', task_id: null, due: null, outputs: '{}', reason: '', input_log: '', start: now(), end: null,
  }).execute();
  await db.insertInto('workflow_approval').values({
    project_id: projectId, run_id: run.id, node_id: approval.id, status: 'pending', created: now(), resolved: null, resolved_by_user_id: null, comment: '',
  }).execute();
  const spare = await db.insertInto('workflow').values({ project_id: projectId, name: 'Spare flow', description: '', start_version: null, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  await db.insertInto('workflow_node').values({
    workflow_id: spare.id, kind: 'delay', name: 'wait', template_id: null, convergence_mode: 'all', approval_timeout: 0, approval_message: '', approval_four_eyes: 0,
    delay_seconds: 5, note: '', task_params: '{}', pos_x: 0, pos_y: 0,
  }).execute();
  return { workflow: workflow.id, workflowRun: run.id, workflowNode: approval.id, workflowTaskNode: task.id, spareWorkflow: spare.id };
}
