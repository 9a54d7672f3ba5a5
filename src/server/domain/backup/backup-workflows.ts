import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { recordEvent } from '../events/event.repository.ts';
import { checkGraph } from '../workflows/workflow-graph.ts';
import { loadGraph } from '../workflows/workflow.service.ts';
import { idOf, type RestoreContext } from './restore-context.ts';

/**
 * Workflows in a backup (`workflows`, Signalbox's section). Nodes carry a `key` the edges name
 * (ids do not survive a restore); a task node names its template, and its task params their
 * inventory and variable group, by name. Runs and versions are history: they stay behind.
 */
const backupNodeSchema = z.looseObject({
  key: z.number().int(), kind: z.enum(['task', 'approval', 'delay', 'note']), name: z.string().max(255).nullable().optional(),
  template: z.string().nullable().optional(), convergence_mode: z.enum(['all', 'any']).nullable().optional(),
  approval_timeout: z.number().int().min(0).nullable().optional(), approval_message: z.string().nullable().optional(),
  approval_four_eyes: z.boolean().nullable().optional(), delay_seconds: z.number().int().min(0).nullable().optional(),
  note: z.string().nullable().optional(), task_params: z.record(z.string(), z.unknown()).nullable().optional(),
  inventory: z.string().nullable().optional(), environment: z.string().nullable().optional(),
  pos_x: z.number().nullable().optional(), pos_y: z.number().nullable().optional(),
});
const backupEdgeSchema = z.looseObject({
  source: z.number().int(), destination: z.number().int(), condition: z.enum(['on_success', 'on_failure', 'always']).nullable().optional(),
  input_mode: z.enum(['by_name', 'explicit']).nullable().optional(),
  input_mappings: z.array(z.looseObject({ variable: z.string(), output: z.string() })).max(200).nullable().optional(),
});
export const backupWorkflowSchema = z.looseObject({
  name: z.string().trim().min(1).max(255), description: z.string().nullable().optional(), start_version: z.string().nullable().optional(),
  nodes: z.array(backupNodeSchema).max(500), edges: z.array(backupEdgeSchema).max(2000).nullable().optional(),
});
type BackupWorkflow = z.infer<typeof backupWorkflowSchema>;

/** The project's workflows, names for ids; node keys are the nodes' ids. */
export async function exportWorkflows(db: Db, projectId: number, names: { templates: Map<number, string>; inventories: Map<number, string>; environments: Map<number, string> }): Promise<BackupWorkflow[]> {
  const rows = await db.selectFrom('workflow').selectAll().where('project_id', '=', projectId).orderBy('name').orderBy('id').execute();
  const out: BackupWorkflow[] = [];
  for (const row of rows) {
    const graph = await loadGraph(db, row.id);
    // keys count from 1 in node order, so a restored workflow exports the same
    const key = new Map(graph.nodes.map((n, i) => [n.id, i + 1]));
    out.push({
      name: row.name, description: row.description, start_version: row.start_version,
      nodes: graph.nodes.map((n) => {
        const { inventory_id: inventoryId, environment_id: environmentId, environment_ids: _ids, ...params } = n.task_params;
        return {
          key: key.get(n.id)!, kind: n.kind, name: n.name, template: n.template_id === null ? null : names.templates.get(n.template_id) ?? null,
          convergence_mode: n.convergence_mode, approval_timeout: n.approval_timeout, approval_message: n.approval_message,
          approval_four_eyes: n.approval_four_eyes, delay_seconds: n.delay_seconds, note: n.note, task_params: params,
          inventory: inventoryId ? names.inventories.get(inventoryId) ?? null : null, environment: environmentId ? names.environments.get(environmentId) ?? null : null,
          pos_x: n.pos_x, pos_y: n.pos_y,
        };
      }),
      edges: graph.edges.map((e) => ({ source: key.get(e.source_node_id)!, destination: key.get(e.destination_node_id)!, condition: e.condition, input_mode: e.input_mode, input_mappings: e.input_mappings })),
    });
  }
  return out;
}

/** Before anything is written: names unique, templates exist, each graph one a workflow may be saved as. */
export function verifyWorkflows(list: BackupWorkflow[] | null | undefined, templates: Set<string>): void {
  const seen = new Set<string>();
  for (const [i, wf] of (list ?? []).entries()) {
    if (seen.has(wf.name)) throw badRequest(`workflows[${i}]: name "${wf.name}" is used twice`);
    seen.add(wf.name);
    for (const node of wf.nodes) {
      if (node.template && !templates.has(node.template)) throw badRequest(`workflows[${i}]: template "${node.template}" does not exist`);
    }
    try {
      checkGraph({
        nodes: wf.nodes.map((n) => ({ id: n.key, kind: n.kind, name: n.name ?? '', template_id: n.template ? 1 : null, convergence_mode: n.convergence_mode ?? 'all', delay_seconds: n.delay_seconds ?? 0, approval_timeout: n.approval_timeout ?? 0 })),
        edges: (wf.edges ?? []).map((e) => ({ source_node_id: e.source, destination_node_id: e.destination, condition: e.condition ?? 'on_success' })),
      });
    } catch (err) {
      throw badRequest(`workflows[${i}]: ${(err as Error).message}`);
    }
  }
}

/** Restores the workflows onto the templates, inventories and variable groups restored by name. */
export async function restoreWorkflows(ctx: RestoreContext, list: BackupWorkflow[] | null | undefined): Promise<void> {
  const { tx, actor } = ctx;
  for (const wf of list ?? []) {
    const row = await tx.insertInto('workflow').values({ project_id: actor.projectId, name: wf.name, description: wf.description ?? '', start_version: wf.start_version || null, created: new Date().toISOString() })
      .returning('id').executeTakeFirstOrThrow();
    const ids = new Map<number, number>();
    for (const n of wf.nodes) {
      const inventoryId = idOf(ctx.ids.inventories, n.inventory);
      const environmentId = idOf(ctx.ids.environments, n.environment);
      const params = { ...(n.task_params ?? {}), ...(inventoryId ? { inventory_id: inventoryId } : {}), ...(environmentId ? { environment_id: environmentId } : {}) };
      const node = await tx.insertInto('workflow_node').values({
        workflow_id: row.id, kind: n.kind, name: n.name ?? '', template_id: idOf(ctx.ids.templates, n.template), convergence_mode: n.convergence_mode ?? 'all',
        approval_timeout: n.approval_timeout ?? 0, approval_message: n.approval_message ?? '', approval_four_eyes: n.approval_four_eyes ? 1 : 0,
        delay_seconds: n.delay_seconds ?? 0, note: n.note ?? '', task_params: JSON.stringify(params), pos_x: Math.round(n.pos_x ?? 0), pos_y: Math.round(n.pos_y ?? 0),
      }).returning('id').executeTakeFirstOrThrow();
      ids.set(n.key, node.id);
    }
    for (const e of wf.edges ?? []) {
      await tx.insertInto('workflow_edge').values({
        workflow_id: row.id, source_node_id: ids.get(e.source)!, destination_node_id: ids.get(e.destination)!, condition: e.condition ?? 'on_success',
        input_mode: e.input_mode ?? 'by_name', input_mappings: JSON.stringify(e.input_mappings ?? []),
      }).execute();
    }
    await recordEvent(tx, { ...actor, objectType: 'workflow', objectId: row.id, objectName: wf.name, description: `Workflow ${wf.name} created` });
    await ctx.pause();
  }
}
