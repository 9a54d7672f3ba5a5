import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/database.ts';
import type { UserRow, WorkflowRow, WorkflowRunNodeRow, WorkflowRunRow } from '../../db/schema.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';
import { stopTask } from '../tasks/task.service.ts';
import { launchTask } from '../tasks/launch/launch-task.ts';
import { findRole } from '../projects/project-members.service.ts';
import { roleBits } from '../roles/role.service.ts';
import { isFinished } from '../tasks/task-status.ts';
import { surveyVarsOf } from '../templates/stored-survey-vars.ts';
import { recordEvent } from '../events/event.repository.ts';
import { edgeState, nodeLabel, planRun, type NodeState } from './workflow-graph.ts';
import { deliverInputs, type Delivery } from './workflow-outputs.ts';
import type { WorkflowDefinition, WorkflowNode } from './workflow.ts';
import { currentDefinition, latestVersionId } from './workflow.service.ts';

/** Run statuses that may still change. */
export const ACTIVE_RUN_STATUSES = ['running', 'approval'];
/** Run-node statuses of a node still working. */
export const ACTIVE_NODE_STATUSES = ['running', 'approval', 'delay'];

/** Thrown inside the queuing transaction when another server claimed the node first. */
class AlreadyClaimed extends Error {}

/**
 * Starts a run of the workflow as it is now (the graph is copied into the run, so edits made
 * meanwhile do not change it) and starts its first node.
 * @example const run = await startWorkflowRun(deps, project, workflow, user, 'release 1.4');
 */
export async function startWorkflowRun(deps: Deps, workflow: WorkflowRow, user: UserRow): Promise<WorkflowRunRow> {
  const definition = await currentDefinition(deps.db, workflow);
  if (!definition.nodes.some((n) => n.kind !== 'note')) throw badRequest('nodes: this workflow has nothing to run');
  const run = await deps.db.transaction().execute(async (tx) => {
    const row = await tx.insertInto('workflow_run').values({
      project_id: workflow.project_id, workflow_id: workflow.id, version_id: await latestVersionId(tx, workflow.id),
      definition: JSON.stringify(definition), status: 'running', user_id: user.id, version: await nextRunVersion(tx, workflow),
      created: now(), start: now(), end: null,
    }).returningAll().executeTakeFirstOrThrow();
    await addHistory(tx, row.id, null, user.id, 'started', `Run started by ${user.username}`);
    await recordEvent(tx, { projectId: workflow.project_id, userId: user.id, objectType: 'workflow', objectId: workflow.id, objectName: workflow.name, description: `Workflow ${workflow.name} run #${row.id} started` });
    return row;
  });
  await advanceRun(deps, run.id);
  return (await deps.db.selectFrom('workflow_run').selectAll().where('id', '=', run.id).executeTakeFirst()) ?? run;
}

/** `start_version` bumped once per run (1.0.0, 1.0.1, …), like build templates; null without one. */
async function nextRunVersion(tx: Tx, workflow: WorkflowRow): Promise<string | null> {
  if (!workflow.start_version) return null;
  const last = await tx.selectFrom('workflow_run').select('version').where('workflow_id', '=', workflow.id).where('version', 'is not', null).orderBy('id', 'desc').executeTakeFirst();
  if (!last?.version) return workflow.start_version;
  const match = /^(.*?)(\d+)(\D*)$/.exec(last.version);
  return match ? `${match[1]}${Number(match[2]) + 1}${match[3]}` : workflow.start_version;
}

export async function addHistory(tx: Tx | Deps['db'], runId: number, nodeId: number | null, userId: number | null, kind: string, message: string): Promise<void> {
  await tx.insertInto('workflow_run_history').values({ run_id: runId, node_id: nodeId, user_id: userId, kind, message, created: now() }).execute();
}

const advancing = new Map<number, Promise<void>>();

/**
 * Moves a run on: records the ends of its tasks, starts every node now due, and ends the run
 * when nothing more will start. Safe to call any number of times from any server: a node
 * starts only through the insert of its run-node row (unique per run and node), and every
 * status change is a compare-and-set, so each node starts and ends once. Calls for one run
 * in this process queue behind each other.
 * @example await advanceRun(deps, runId);
 */
export function advanceRun(deps: Deps, runId: number): Promise<void> {
  const previous = advancing.get(runId) ?? Promise.resolve();
  const next = previous.then(async () => {
    for (let round = 0; round < 100 && (await advanceOnce(deps, runId)); round++);
  });
  const settled = next.catch((err) => console.warn(`[workflows] run ${runId}: ${(err as Error).message}`)).finally(() => {
    if (advancing.get(runId) === settled) advancing.delete(runId);
  });
  advancing.set(runId, settled);
  return settled;
}

/** One pass; true when it started something, so another pass may find more. */
async function advanceOnce(deps: Deps, runId: number): Promise<boolean> {
  const run = await deps.db.selectFrom('workflow_run').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!run || !ACTIVE_RUN_STATUSES.includes(run.status)) return false;
  const definition = parseJsonColumn<WorkflowDefinition>(run.definition, { name: '', description: '', start_version: null, nodes: [], edges: [] });
  const rows = await syncTaskEnds(deps, runId);
  const plan = planRun(definition, new Map(rows.map((r) => [r.node_id, nodeStateOf(r.status)])));
  for (const nodeId of plan.ready) await startNode(deps, run, definition, nodeId, rows);
  if (plan.ready.length) return true;
  if (plan.finished) await finishRun(deps, run, plan.failed ? 'failed' : 'success');
  else await setRunStatus(deps, run, rows.some((r) => r.status === 'approval') ? 'approval' : 'running');
  return false;
}

function nodeStateOf(status: string): NodeState {
  if (ACTIVE_NODE_STATUSES.includes(status)) return 'active';
  return status === 'success' || status === 'failed' || status === 'stopped' ? status : 'failed';
}

/** The run's node rows, after recording the end of every task node whose task has ended. */
async function syncTaskEnds(deps: Deps, runId: number): Promise<WorkflowRunNodeRow[]> {
  const rows = await deps.db.selectFrom('workflow_run_node').selectAll().where('run_id', '=', runId).orderBy('id').execute();
  for (const row of rows) {
    if (row.status !== 'running' || row.task_id === null) continue;
    const task = await deps.db.selectFrom('task').select(['status', 'end']).where('id', '=', row.task_id).executeTakeFirst();
    if (task && !isFinished(task.status)) continue;
    const status = task?.status === 'success' ? 'success' : 'failed';
    const outputs = status === 'success' ? (await deps.db.selectFrom('task_output_value').select('outputs').where('task_id', '=', row.task_id).executeTakeFirst())?.outputs ?? '{}' : null;
    const ended = await deps.db.updateTable('workflow_run_node').set({ status, outputs, end: task?.end ?? now(), reason: task ? `task ${task.status}` : 'task deleted' })
      .where('id', '=', row.id).where('status', '=', 'running').returningAll().executeTakeFirst();
    if (ended) Object.assign(row, ended);
    else Object.assign(row, await deps.db.selectFrom('workflow_run_node').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow());
  }
  return rows;
}

/** The incoming connections that carry their source's end on, oldest first, with the source's row. */
function liveIncoming(definition: WorkflowDefinition, nodeId: number, rows: WorkflowRunNodeRow[]) {
  return definition.edges.filter((e) => e.destination_node_id === nodeId)
    .map((edge) => ({ edge, source: rows.find((r) => r.node_id === edge.source_node_id) }))
    .filter(({ edge, source }) => source && edgeState(edge, nodeStateOf(source.status)) === 'live')
    .sort((a, b) => a.edge.id - b.edge.id) as { edge: WorkflowDefinition['edges'][number]; source: WorkflowRunNodeRow }[];
}

async function startNode(deps: Deps, run: WorkflowRunRow, definition: WorkflowDefinition, nodeId: number, rows: WorkflowRunNodeRow[]): Promise<void> {
  const node = definition.nodes.find((n) => n.id === nodeId)!;
  const incoming = liveIncoming(definition, nodeId, rows);
  if (node.kind === 'task') return startTaskNode(deps, run, definition, node, incoming);
  // approval and delay nodes hand on what reached them (the newest connection's values win)
  const passed: Record<string, unknown> = {};
  for (const { source } of incoming) Object.assign(passed, parseJsonColumn<Record<string, unknown>>(source.outputs, {}));
  const seconds = node.kind === 'delay' ? node.delay_seconds : node.approval_timeout;
  const due = seconds > 0 ? new Date(Date.now() + seconds * 1000).toISOString() : null;
  const claimed = await deps.db.transaction().execute(async (tx) => {
    if (!(await claimNode(tx, run.id, node, { status: node.kind, due, outputs: JSON.stringify(passed) }))) return false;
    if (node.kind === 'approval') {
      await tx.insertInto('workflow_approval').values({ project_id: run.project_id, run_id: run.id, node_id: node.id, status: 'pending', created: now(), resolved: null, resolved_by_user_id: null, comment: '' })
        .onConflict((oc) => oc.columns(['run_id', 'node_id']).doNothing()).execute();
      await addHistory(tx, run.id, node.id, null, 'approval_requested', `${nodeLabel(node)} waits for approval${node.approval_message ? `: ${node.approval_message}` : ''}`);
    } else {
      await addHistory(tx, run.id, node.id, null, 'delay_started', `${nodeLabel(node)} waits ${node.delay_seconds} s`);
    }
    return true;
  });
  if (!claimed) return;
  // `approval_requested`: the alerts announce the waiting approval (alerts/alerts.ts)
  publishRun(deps, run, node.kind === 'approval' ? 'approval_requested' : run.status, due);
}

/** Inserts the node's run row unless one exists (another pass or server started it): the claim. */
async function claimNode(tx: Tx, runId: number, node: WorkflowNode, values: Partial<Pick<WorkflowRunNodeRow, 'status' | 'task_id' | 'due' | 'outputs' | 'reason' | 'input_log' | 'end'>>): Promise<boolean> {
  const row = await tx.insertInto('workflow_run_node').values({
    run_id: runId, node_id: node.id, kind: node.kind, status: values.status ?? 'running', task_id: values.task_id ?? null, due: values.due ?? null,
    outputs: values.outputs ?? null, reason: values.reason ?? '', input_log: values.input_log ?? '', start: now(), end: values.end ?? null,
  }).onConflict((oc) => oc.columns(['run_id', 'node_id']).doNothing()).returning('id').executeTakeFirst();
  return Boolean(row);
}

/**
 * Starts the node's template through the launch function, for the person who started the run
 * (who must still be allowed to run tasks): the node's task params, survey values filled from
 * the outputs of the connections into it (never secrets; values from outputs are untrusted),
 * and, for a deploy, the build an incoming node just made. The node is claimed in the same
 * transaction. A start the launch rules refuse (a required variable without a value, a deploy
 * with no build, a template gone) fails the node with that reason, so the run follows its
 * failure edges.
 */
async function startTaskNode(deps: Deps, run: WorkflowRunRow, definition: WorkflowDefinition, node: WorkflowNode, incoming: ReturnType<typeof liveIncoming>): Promise<void> {
  const template = node.template_id ? await deps.db.selectFrom('template').selectAll().where('id', '=', node.template_id).where('project_id', '=', run.project_id).executeTakeFirst() : undefined;
  const project = await deps.db.selectFrom('project').selectAll().where('id', '=', run.project_id).executeTakeFirst();
  const user = run.user_id ? await deps.db.selectFrom('user').selectAll().where('id', '=', run.user_id).executeTakeFirst() : undefined;
  if (!template || !project || !user) return failNodeUnstarted(deps, run, node, !template ? 'its template no longer exists' : 'the user who started the run no longer exists');
  const deliveries: Delivery[] = incoming.filter(({ source }) => source.status === 'success' || source.kind !== 'task').map(({ edge, source }) => ({
    edge_id: edge.id, input_mode: edge.input_mode, input_mappings: edge.input_mappings ?? [], source_node_id: source.node_id, source_task_id: source.task_id,
    outputs: parseJsonColumn<Record<string, unknown>>(source.outputs, {}),
  }));
  const inputs = deliverInputs(surveyVarsOf(template.survey_vars), deliveries);
  const params = node.task_params ?? {};
  const environment = { ...(params.environment ?? {}), ...inputs.values };
  try {
    const role = await findRole(deps.db, project.id, user.id);
    await launchTask(deps, {
      path: 'workflow', user, permissions: role ? await roleBits(deps.db, project.id, role) : 0, valuesFrom: 'configuration',
      outsideValues: Object.keys(inputs.values).length > 0,
      onInsert: async (tx, task) => {
        if (!(await claimNode(tx, run.id, node, { status: 'running', task_id: task.id, input_log: inputs.lines.join('\n') }))) throw new AlreadyClaimed();
        await addHistory(tx, run.id, node.id, null, 'task_queued', `${nodeLabel(node)}: task #${task.id} queued`);
      },
    }, {
      projectId: project.id,
      input: {
        template_id: template.id, message: params.message || `${definition.name} run #${run.id}: ${node.name || `node ${node.id}`}`,
        environment, inventory_id: params.inventory_id ?? undefined, environment_ids: params.environment_ids ?? (params.environment_id ? [params.environment_id] : undefined),
        limit: Array.isArray(params.limit) ? params.limit.join(',') : params.limit ?? undefined, arguments: params.arguments ?? undefined,
        git_branch: params.git_branch ?? undefined, debug: params.debug, dry_run: params.dry_run, diff: params.diff,
        params: { ...(params.tags ? { tags: params.tags } : {}), ...(params.skip_tags ? { skip_tags: params.skip_tags } : {}) },
        build_task_id: template.type === 'deploy' ? await incomingBuild(deps, template.build_template_id, deliveries) : undefined,
      },
    });
  } catch (err) {
    if (err instanceof AlreadyClaimed) return;
    if (!(err instanceof ApiError)) throw err;
    await failNodeUnstarted(deps, run, node, err.message);
  }
  publishRun(deps, run, run.status, null);
}

/** The newest task of the deploy's build template among the nodes that hand this one their end. */
async function incomingBuild(deps: Deps, buildTemplateId: number | null, deliveries: Delivery[]): Promise<number | undefined> {
  const ids = deliveries.map((d) => d.source_task_id).filter((id): id is number => id !== null);
  if (!buildTemplateId || !ids.length) return undefined;
  const build = await deps.db.selectFrom('task').select('id').where('id', 'in', ids).where('template_id', '=', buildTemplateId)
    .orderBy('id', 'desc').executeTakeFirst();
  return build?.id;
}

async function failNodeUnstarted(deps: Deps, run: WorkflowRunRow, node: WorkflowNode, reason: string): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    if (await claimNode(tx, run.id, node, { status: 'failed', reason, end: now() })) await addHistory(tx, run.id, node.id, null, 'node_failed', `${nodeLabel(node)} could not start: ${reason}`);
  });
}

async function setRunStatus(deps: Deps, run: WorkflowRunRow, status: string): Promise<void> {
  if (run.status === status) return;
  const moved = await deps.db.updateTable('workflow_run').set({ status }).where('id', '=', run.id).where('status', 'in', ACTIVE_RUN_STATUSES).returning('id').executeTakeFirst();
  if (moved) publishRun(deps, run, status, null);
}

async function finishRun(deps: Deps, run: WorkflowRunRow, status: 'success' | 'failed'): Promise<void> {
  const ended = await deps.db.transaction().execute(async (tx) => {
    const moved = await tx.updateTable('workflow_run').set({ status, end: now() }).where('id', '=', run.id).where('status', 'in', ACTIVE_RUN_STATUSES).returning('id').executeTakeFirst();
    if (moved) await addHistory(tx, run.id, null, null, 'finished', `Run ${status === 'success' ? 'succeeded' : 'failed'}`);
    return Boolean(moved);
  });
  if (ended) publishRun(deps, run, status, null);
}

/** Tells every server and browser that the run changed (`due`: a timer they should set). */
export function publishRun(deps: Deps, run: Pick<WorkflowRunRow, 'id' | 'project_id' | 'workflow_id'>, status: string, due: string | null): void {
  deps.bus.publish({ type: 'workflow', project_id: run.project_id, workflow_id: run.workflow_id, run_id: run.id, status, due });
}

/**
 * Approves or rejects the run's waiting approval at `nodeId`. Anyone who may run tasks in the
 * project may decide, except, when the node asks for four eyes, the user who started the run.
 * The decision (who, when, comment) goes into the run's history; the run moves on at once.
 * @example await resolveApproval(deps, run, 4, user, 'approved', 'looks good');
 */
export async function resolveApproval(deps: Deps, run: WorkflowRunRow, nodeId: number, user: UserRow, status: 'approved' | 'rejected', comment: string) {
  const definition = parseJsonColumn<WorkflowDefinition>(run.definition, { name: '', description: '', start_version: null, nodes: [], edges: [] });
  const node = definition.nodes.find((n) => n.id === nodeId && n.kind === 'approval');
  const approval = await deps.db.selectFrom('workflow_approval').selectAll().where('run_id', '=', run.id).where('node_id', '=', nodeId).executeTakeFirst();
  if (!node || !approval) throw notFound();
  if (approval.status !== 'pending') throw new ApiError('conflict', `this approval was already ${approval.status}`);
  if (node.approval_four_eyes && run.user_id === user.id) throw new ApiError('forbidden', 'four eyes: the user who started the run may not decide its approval');
  const decided = await deps.db.transaction().execute(async (tx) => {
    const row = await tx.updateTable('workflow_approval').set({ status, resolved: now(), resolved_by_user_id: user.id, comment })
      .where('id', '=', approval.id).where('status', '=', 'pending').returningAll().executeTakeFirst();
    if (!row) return null;
    await tx.updateTable('workflow_run_node').set({ status: status === 'approved' ? 'success' : 'failed', end: now(), reason: status, due: null })
      .where('run_id', '=', run.id).where('node_id', '=', nodeId).where('status', '=', 'approval').execute();
    await addHistory(tx, run.id, nodeId, user.id, status, `${nodeLabel(node)} ${status} by ${user.username}${comment ? `: ${comment}` : ''}`);
    await recordEvent(tx, { projectId: run.project_id, userId: user.id, objectType: 'workflow', objectId: run.workflow_id, description: `Workflow run ${run.id}: ${nodeLabel(node)} ${status}` });
    return row;
  });
  if (!decided) throw new ApiError('conflict', 'this approval was already decided');
  await advanceRun(deps, run.id);
  return decided;
}

/**
 * Ends a delay or times out an approval whose time has come (any server may call it: the
 * status change is a compare-and-set), then moves the run on.
 */
export async function expireDue(deps: Deps, runNodeId: number): Promise<void> {
  const row = await deps.db.selectFrom('workflow_run_node').selectAll().where('id', '=', runNodeId).executeTakeFirst();
  if (!row || !row.due || new Date(row.due).getTime() > Date.now() || !['delay', 'approval'].includes(row.status)) return;
  await deps.db.transaction().execute(async (tx) => {
    const status = row.status === 'delay' ? 'success' : 'failed';
    const moved = await tx.updateTable('workflow_run_node').set({ status, end: now(), reason: row.status === 'delay' ? 'delay over' : 'approval timed out' })
      .where('id', '=', row.id).where('status', '=', row.status).returning('id').executeTakeFirst();
    if (!moved) return;
    if (row.status === 'approval') {
      await tx.updateTable('workflow_approval').set({ status: 'rejected', resolved: now(), comment: 'timed out' }).where('run_id', '=', row.run_id).where('node_id', '=', row.node_id).where('status', '=', 'pending').execute();
      await addHistory(tx, row.run_id, row.node_id, null, 'timed_out', `approval node ${row.node_id} timed out`);
    } else {
      await addHistory(tx, row.run_id, row.node_id, null, 'delay_over', `delay node ${row.node_id} is over`);
    }
  });
  await advanceRun(deps, row.run_id);
}

/**
 * Stops a run: it ends `stopped` at once, its running tasks are stopped, pending approvals
 * rejected and delays cancelled. A finished run is a 400.
 */
export async function stopRun(deps: Deps, run: WorkflowRunRow, user: UserRow): Promise<void> {
  const stopped = await deps.db.transaction().execute(async (tx) => {
    const moved = await tx.updateTable('workflow_run').set({ status: 'stopped', end: now() }).where('id', '=', run.id).where('status', 'in', ACTIVE_RUN_STATUSES).returning('id').executeTakeFirst();
    if (!moved) return null;
    await tx.updateTable('workflow_approval').set({ status: 'rejected', resolved: now(), resolved_by_user_id: user.id, comment: 'run stopped' }).where('run_id', '=', run.id).where('status', '=', 'pending').execute();
    const active = await tx.updateTable('workflow_run_node').set({ status: 'stopped', end: now(), reason: `stopped by ${user.username}`, due: null })
      .where('run_id', '=', run.id).where('status', 'in', ACTIVE_NODE_STATUSES).returningAll().execute();
    await addHistory(tx, run.id, null, user.id, 'stopped', `Run stopped by ${user.username}`);
    await recordEvent(tx, { projectId: run.project_id, userId: user.id, objectType: 'workflow', objectId: run.workflow_id, description: `Workflow run ${run.id} stopped` });
    return active;
  });
  if (!stopped) throw badRequest(`run ${run.id} has already ended (${run.status})`);
  for (const row of stopped) {
    if (row.task_id === null) continue;
    const task = await deps.db.selectFrom('task').selectAll().where('id', '=', row.task_id).executeTakeFirst();
    if (task && !isFinished(task.status)) await stopTask(deps, task, false).catch(() => undefined);
  }
  publishRun(deps, run, 'stopped', null);
}

/** The project's run `runId` of workflow `workflowId`, or an empty 404. */
export async function findRun(db: Deps['db'], projectId: number, workflowId: number, runId: number): Promise<WorkflowRunRow> {
  const row = await db.selectFrom('workflow_run').selectAll().where('id', '=', runId).where('workflow_id', '=', workflowId).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

