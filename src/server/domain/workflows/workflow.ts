import { z } from 'zod';
import type { WorkflowEdgeRow, WorkflowNodeRow, WorkflowRow } from '../../db/schema.ts';
import { INT32_MAX, parseJsonColumn, refId } from '../shared/project-refs.ts';
import type { GraphEdge, GraphNode } from './workflow-graph.ts';

/** A node id in a request: a saved node's id, or any other integer the client picked for a new node. */
const nodeKey = z.number().int().min(-INT32_MAX).max(INT32_MAX);

const inputMappingSchema = z.strictObject({
  variable: z.string().min(1).max(255),
  output: z.string().min(1).max(255),
});

/** Per-node task params: what a run of the template may choose (Semaphore's TaskParams, plus survey values). */
export const nodeTaskParamsSchema = z.strictObject({
  inventory_id: refId.nullable().optional(),
  environment_id: refId.nullable().optional(),
  environment_ids: z.array(refId).max(50).nullable().optional(),
  limit: z.union([z.string().max(4096), z.array(z.string().max(1024)).max(200)]).nullable().optional(),
  tags: z.union([z.string().max(4096), z.array(z.string().max(1024)).max(200)]).nullable().optional(),
  skip_tags: z.union([z.string().max(4096), z.array(z.string().max(1024)).max(200)]).nullable().optional(),
  arguments: z.string().max(65536).nullable().optional(),
  git_branch: z.string().max(255).nullable().optional(),
  message: z.string().max(1024).nullable().optional(),
  debug: z.boolean().optional(),
  dry_run: z.boolean().optional(),
  diff: z.boolean().optional(),
  environment: z.record(z.string().max(255), z.unknown()).nullable().optional(),
});
export type NodeTaskParams = z.infer<typeof nodeTaskParamsSchema>;

export const workflowNodeInputSchema = z.strictObject({
  id: nodeKey.optional(),
  workflow_template_id: z.number().int().optional(),
  kind: z.enum(['task', 'approval', 'delay', 'note']),
  name: z.string().max(255, 'at most 255 characters').optional(),
  template_id: refId.nullable().optional(),
  convergence_mode: z.enum(['all', 'any']).optional(),
  approval_timeout: z.number().int().min(0).max(INT32_MAX).optional(),
  approval_message: z.string().max(4096).optional(),
  approval_four_eyes: z.boolean().optional(),
  delay_seconds: z.number().int().min(0).max(INT32_MAX).optional(),
  note: z.string().max(65536).optional(),
  task_params: nodeTaskParamsSchema.nullable().optional(),
  pos_x: z.number().finite().optional(),
  pos_y: z.number().finite().optional(),
});
export type WorkflowNodeInput = z.infer<typeof workflowNodeInputSchema>;

export const workflowEdgeInputSchema = z.strictObject({
  id: z.number().int().optional(),
  workflow_template_id: z.number().int().optional(),
  source_node_id: nodeKey,
  destination_node_id: nodeKey,
  condition: z.enum(['on_success', 'on_failure', 'always']).optional(),
  input_mode: z.enum(['by_name', 'explicit']).optional(),
  input_mappings: z.array(inputMappingSchema).max(200).nullable().optional(),
});

export const workflowInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  name: z.string().trim().min(1, 'required').max(255, 'at most 255 characters'),
  description: z.string().max(65536).nullable().optional(),
  start_version: z.string().max(255).nullable().optional(),
  message: z.string().max(1024).optional(),
  nodes: z.array(workflowNodeInputSchema).max(500, 'at most 500 nodes').nullable().optional(),
  edges: z.array(workflowEdgeInputSchema).max(2000, 'at most 2000 edges').nullable().optional(),
});
export type WorkflowInput = z.infer<typeof workflowInputSchema>;

export const approvalDecisionSchema = z.strictObject({
  status: z.enum(['approved', 'rejected']),
  comment: z.string().max(4096).optional(),
});

export const runWorkflowSchema = z.strictObject({
  message: z.string().max(1024).optional(),
});

/** A node as the API and run snapshots show it. */
export interface WorkflowNode extends GraphNode {
  workflow_template_id: number;
  approval_message: string;
  approval_four_eyes: boolean;
  note: string;
  task_params: NodeTaskParams;
  pos_x: number;
  pos_y: number;
}

export interface WorkflowEdge extends GraphEdge {
  id: number;
  workflow_template_id: number;
  input_mode: 'by_name' | 'explicit';
  input_mappings: { variable: string; output: string }[];
}

export interface WorkflowDefinition {
  name: string;
  description: string;
  start_version: string | null;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

export function nodeRowToNode(row: WorkflowNodeRow): WorkflowNode {
  return {
    id: row.id, workflow_template_id: row.workflow_id, kind: row.kind as WorkflowNode['kind'], name: row.name,
    template_id: row.template_id, convergence_mode: row.convergence_mode === 'any' ? 'any' : 'all',
    approval_timeout: row.approval_timeout, approval_message: row.approval_message, approval_four_eyes: Boolean(row.approval_four_eyes),
    delay_seconds: row.delay_seconds, note: row.note, task_params: parseJsonColumn<NodeTaskParams>(row.task_params, {}),
    pos_x: row.pos_x, pos_y: row.pos_y,
  };
}

export function edgeRowToEdge(row: WorkflowEdgeRow): WorkflowEdge {
  return {
    id: row.id, workflow_template_id: row.workflow_id, source_node_id: row.source_node_id, destination_node_id: row.destination_node_id,
    condition: row.condition as WorkflowEdge['condition'], input_mode: row.input_mode === 'explicit' ? 'explicit' : 'by_name',
    input_mappings: parseJsonColumn(row.input_mappings, []),
  };
}

/** A workflow as the API shows it (Semaphore's WorkflowTemplate, plus `start_version`). */
export function workflowToApi(row: WorkflowRow, nodes: WorkflowNode[], edges: WorkflowEdge[]) {
  return { id: row.id, project_id: row.project_id, name: row.name, description: row.description, start_version: row.start_version, created: row.created, nodes, edges };
}
