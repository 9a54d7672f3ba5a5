import { createHash } from 'node:crypto';
import type { Db, Tx } from '../../db/database.ts';
import type { WorkflowRow } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import type { Actor } from '../project-resource.ts';
import { recordEvent } from '../events/event.repository.ts';
import { checkGraph, nodeLabel, type GraphNode } from './workflow-graph.ts';
import {
  edgeRowToEdge, nodeRowToNode, workflowToApi, type WorkflowDefinition, type WorkflowEdge, type WorkflowInput, type WorkflowNode, type WorkflowNodeInput,
} from './workflow.ts';

/** The project's workflow `id`, or an empty 404. */
export async function findWorkflow(db: Db | Tx, projectId: number, id: number): Promise<WorkflowRow> {
  const row = await db.selectFrom('workflow').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A workflow's nodes and edges, in id order. */
export async function loadGraph(db: Db | Tx, workflowId: number): Promise<{ nodes: WorkflowNode[]; edges: WorkflowEdge[] }> {
  const nodes = await db.selectFrom('workflow_node').selectAll().where('workflow_id', '=', workflowId).orderBy('id').execute();
  const edges = await db.selectFrom('workflow_edge').selectAll().where('workflow_id', '=', workflowId).orderBy('id').execute();
  return { nodes: nodes.map(nodeRowToNode), edges: edges.map(edgeRowToEdge) };
}

export async function presentWorkflow(db: Db | Tx, row: WorkflowRow) {
  const graph = await loadGraph(db, row.id);
  return workflowToApi(row, graph.nodes, graph.edges);
}

/** The project's workflows with their graphs, by name. */
export async function listWorkflows(db: Db | Tx, projectId: number) {
  const rows = await db.selectFrom('workflow').selectAll().where('project_id', '=', projectId).orderBy('name').orderBy('id').execute();
  return Promise.all(rows.map((row) => presentWorkflow(db, row)));
}

/**
 * Creates a workflow from Semaphore's WorkflowTemplate body: the graph is checked (checkGraph)
 * before anything is written; edges name nodes by the ids the request gave them.
 * @example await createWorkflow(tx, actor, { name: 'Release', nodes: [...], edges: [...] });
 */
export async function createWorkflow(tx: Tx, actor: Actor, input: WorkflowInput): Promise<WorkflowRow> {
  await checkInput(tx, actor.projectId, input, []);
  const row = await tx.insertInto('workflow').values({
    project_id: actor.projectId, name: input.name, description: input.description ?? '', start_version: input.start_version || null, created: now(),
  }).returningAll().executeTakeFirstOrThrow();
  await writeGraph(tx, row.id, input, []);
  await recordVersion(tx, row, actor.userId, input.message ?? 'Created');
  await recordEvent(tx, { projectId: actor.projectId, userId: actor.userId, objectType: 'workflow', objectId: row.id, objectName: row.name, description: `Workflow ${row.name} created` });
  return row;
}

/** Updates name, description, start version and, when `nodes` is given, the graph (a new version when it changed). */
export async function updateWorkflow(tx: Tx, actor: Actor, row: WorkflowRow, input: WorkflowInput): Promise<void> {
  const existing = (await loadGraph(tx, row.id)).nodes;
  await checkInput(tx, actor.projectId, input, existing);
  await tx.updateTable('workflow').set({
    name: input.name, description: input.description ?? row.description,
    start_version: input.start_version === undefined ? row.start_version : input.start_version || null,
  }).where('id', '=', row.id).execute();
  if (input.nodes) await writeGraph(tx, row.id, input, existing);
  await recordVersion(tx, { ...row, name: input.name }, actor.userId, input.message ?? 'Saved');
  await recordEvent(tx, { projectId: actor.projectId, userId: actor.userId, objectType: 'workflow', objectId: row.id, objectName: input.name, description: `Workflow ${input.name} updated` });
}

export async function deleteWorkflow(tx: Tx, actor: Actor, row: WorkflowRow): Promise<void> {
  const active = await tx.selectFrom('workflow_run').select('id').where('workflow_id', '=', row.id).where('status', 'in', ['running', 'approval']).executeTakeFirst();
  if (active) throw badRequest(`workflow run ${active.id} is still active; stop it first`);
  await tx.deleteFrom('workflow').where('id', '=', row.id).execute();
  await recordEvent(tx, { projectId: actor.projectId, userId: actor.userId, objectType: 'workflow', objectId: row.id, objectName: row.name, description: `Workflow ${row.name} deleted` });
}

/** The graph of a request as checkGraph sees it, keyed by the request's node ids. */
export function requestGraph(input: Pick<WorkflowInput, 'nodes' | 'edges'>) {
  const nodes: GraphNode[] = (input.nodes ?? []).map((n, i) => ({
    id: n.id ?? -(i + 1), kind: n.kind, name: n.name ?? '', template_id: n.template_id ?? null,
    convergence_mode: n.convergence_mode ?? 'all', delay_seconds: n.delay_seconds ?? 0, approval_timeout: n.approval_timeout ?? 0,
  }));
  const edges = (input.edges ?? []).map((e) => ({ source_node_id: e.source_node_id, destination_node_id: e.destination_node_id, condition: e.condition ?? 'on_success' as const }));
  return { nodes, edges };
}

async function checkInput(tx: Tx, projectId: number, input: WorkflowInput, existing: WorkflowNode[]): Promise<void> {
  if (!input.nodes && existing.length) return;
  const graph = requestGraph(input);
  checkGraph(graph);
  const templateIds = [...new Set(graph.nodes.map((n) => n.template_id).filter((id): id is number => id !== null))];
  const found = templateIds.length ? await tx.selectFrom('template').select('id').where('project_id', '=', projectId).where('id', 'in', templateIds).execute() : [];
  const known = new Set(found.map((t) => t.id));
  for (const node of graph.nodes) {
    if (node.kind === 'task' && node.template_id !== null && !known.has(node.template_id)) throw badRequest(`${nodeLabel(node)}: template ${node.template_id} is not in this project`, { node_id: node.id });
  }
  for (const [i, node] of (input.nodes ?? []).entries()) await checkTaskParamRefs(tx, projectId, graph.nodes[i]!, node.task_params);
  for (const edge of input.edges ?? []) {
    const target = graph.nodes.find((n) => n.id === edge.destination_node_id);
    if ((edge.input_mappings?.length ?? 0) > 0 && target?.kind === 'note') throw badRequest(`${nodeLabel(target)}: a note has no connections`, { node_id: target.id });
  }
}

/**
 * The inventory and environments a node's task params name must be the project's own: a run
 * would refuse another project's anyway, and a save is where the editor can say so.
 */
async function checkTaskParamRefs(tx: Tx, projectId: number, node: GraphNode, params: WorkflowNodeInput['task_params']): Promise<void> {
  if (!params) return;
  const refs: [table: 'inventory' | 'environment', field: string, id: number | null | undefined][] = [
    ['inventory', 'inventory_id', params.inventory_id], ['environment', 'environment_id', params.environment_id],
    ...(params.environment_ids ?? []).map((id) => ['environment', 'environment_ids', id] as ['environment', string, number]),
  ];
  for (const [table, field, id] of refs) {
    if (id === null || id === undefined) continue;
    const row = await tx.selectFrom(table).select('id').where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
    if (!row) throw badRequest(`${nodeLabel(node)}: task_params.${field}: no ${table} ${id} in this project`, { node_id: node.id });
  }
}

/** Saves the request's nodes (a node whose id is one of this workflow's keeps it) and replaces the edges. */
async function writeGraph(tx: Tx, workflowId: number, input: WorkflowInput, existing: WorkflowNode[]): Promise<void> {
  const keep = new Set(existing.map((n) => n.id));
  const ids = new Map<number, number>();
  await tx.deleteFrom('workflow_edge').where('workflow_id', '=', workflowId).execute();
  for (const [i, node] of (input.nodes ?? []).entries()) {
    const key = node.id ?? -(i + 1);
    const values = nodeValues(workflowId, node);
    if (keep.has(key)) {
      await tx.updateTable('workflow_node').set(values).where('id', '=', key).execute();
      ids.set(key, key);
    } else {
      ids.set(key, (await tx.insertInto('workflow_node').values(values).returning('id').executeTakeFirstOrThrow()).id);
    }
  }
  const kept = [...ids.values()];
  let gone = tx.deleteFrom('workflow_node').where('workflow_id', '=', workflowId);
  if (kept.length) gone = gone.where('id', 'not in', kept);
  await gone.execute();
  for (const edge of input.edges ?? []) {
    await tx.insertInto('workflow_edge').values({
      workflow_id: workflowId, source_node_id: ids.get(edge.source_node_id)!, destination_node_id: ids.get(edge.destination_node_id)!,
      condition: edge.condition ?? 'on_success', input_mode: edge.input_mode ?? 'by_name', input_mappings: JSON.stringify(edge.input_mappings ?? []),
    }).execute();
  }
}

function nodeValues(workflowId: number, node: WorkflowNodeInput) {
  return {
    workflow_id: workflowId, kind: node.kind, name: node.name ?? '', template_id: node.kind === 'task' ? node.template_id ?? null : null,
    convergence_mode: node.convergence_mode ?? 'all', approval_timeout: node.approval_timeout ?? 0, approval_message: node.approval_message ?? '',
    approval_four_eyes: node.approval_four_eyes ? 1 : 0, delay_seconds: node.delay_seconds ?? 0, note: node.note ?? '',
    task_params: JSON.stringify(node.task_params ?? {}), pos_x: Math.round(node.pos_x ?? 0), pos_y: Math.round(node.pos_y ?? 0),
  };
}

/** The workflow as it is now, the definition a version and a run keep. */
export async function currentDefinition(db: Db | Tx, row: WorkflowRow): Promise<WorkflowDefinition> {
  const graph = await loadGraph(db, row.id);
  return { name: row.name, description: row.description, start_version: row.start_version, ...graph };
}

/** Adds a version when the definition differs from the newest one; returns the newest version's id. */
async function recordVersion(tx: Tx, row: WorkflowRow, userId: number | null, message: string): Promise<number> {
  const fresh = await tx.selectFrom('workflow').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  const current = await currentDefinition(tx, fresh);
  const definition = JSON.stringify(current);
  // edges are written anew on every save: their ids say nothing about the content
  const content = JSON.stringify({ ...current, edges: current.edges.map(({ id: _id, ...edge }) => edge) });
  const fingerprint = createHash('sha256').update(content).digest('hex');
  const last = await tx.selectFrom('workflow_version').select(['id', 'version_number', 'content_fingerprint']).where('workflow_id', '=', row.id).orderBy('version_number', 'desc').executeTakeFirst();
  if (last?.content_fingerprint === fingerprint) return last.id;
  const inserted = await tx.insertInto('workflow_version').values({
    workflow_id: row.id, version_number: (last?.version_number ?? 0) + 1, parent_version_id: last?.id ?? null, restored_from_version_id: null,
    author_user_id: userId, message, content_fingerprint: fingerprint, definition, created: now(),
  }).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** A version as the API shows it (`definition` parsed). */
export function versionToApi(row: { id: number; version_number: number; parent_version_id: number | null; restored_from_version_id: number | null; author_user_id: number | null; message: string; content_fingerprint: string; created: string; definition?: string }) {
  const { definition, ...rest } = row;
  return { ...rest, ...(definition !== undefined ? { definition: JSON.parse(definition) } : {}) };
}

/** Versions newest first; `count` limits them. */
export async function listVersions(db: Db | Tx, workflowId: number, count: number) {
  const rows = await db.selectFrom('workflow_version').select(['id', 'version_number', 'parent_version_id', 'restored_from_version_id', 'author_user_id', 'message', 'content_fingerprint', 'created'])
    .where('workflow_id', '=', workflowId).orderBy('version_number', 'desc').limit(count).execute();
  return rows.map(versionToApi);
}

export async function findVersion(db: Db | Tx, workflowId: number, versionNumber: number) {
  const row = await db.selectFrom('workflow_version').selectAll().where('workflow_id', '=', workflowId).where('version_number', '=', versionNumber).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** The newest version's id (a run names the version it ran). */
export async function latestVersionId(db: Db | Tx, workflowId: number): Promise<number | null> {
  return (await db.selectFrom('workflow_version').select('id').where('workflow_id', '=', workflowId).orderBy('version_number', 'desc').executeTakeFirst())?.id ?? null;
}
