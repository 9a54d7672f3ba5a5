import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { actorOf, limitQuery } from './route-context.ts';
import { approvalDecisionSchema, runWorkflowSchema, workflowInputSchema } from '../domain/workflows/workflow.ts';
import {
  createWorkflow, deleteWorkflow, findVersion, findWorkflow, listVersions, listWorkflows, presentWorkflow, requestGraph, updateWorkflow, versionToApi,
} from '../domain/workflows/workflow.service.ts';
import { problemsOf } from '../domain/workflows/workflow-graph.ts';
import { findRun, resolveApproval, startWorkflowRun, stopRun } from '../domain/workflows/workflow-run.service.ts';
import { redactRunDetails, redactWorkflow } from '../domain/workflows/workflow-redact.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';
import { approvalToApi, listRuns, pendingApprovals, runArtifacts, runDetails, runToApi } from '../domain/workflows/workflow-run.view.ts';

/**
 * `/api/project/:project_id/workflows`: workflow templates (Semaphore Pro's WorkflowTemplate
 * shapes) with their versions, runs, approvals and merged artifacts.
 */
export const workflowsRoutes = new Hono<AppEnv>();

const workflowOf = (c: Context<AppEnv>) => findWorkflow(c.var.deps.db, c.var.project.id, idParam(c, 'workflow_id'));
const runOf = (c: Context<AppEnv>) => findRun(c.var.deps.db, c.var.project.id, idParam(c, 'workflow_id'), idParam(c, 'run_id'));

// nodes of templates the caller does not see are redacted (domain/workflows/workflow-redact.ts)
workflowsRoutes.get('/', async (c) => {
  const scope = await templateScopeOf(c);
  return c.json((await listWorkflows(c.var.deps.db, c.var.project.id)).map((w) => redactWorkflow(w, scope)));
});

workflowsRoutes.post('/', async (c) => {
  const input = await readJson(c, workflowInputSchema);
  const { db } = c.var.deps;
  const row = await db.transaction().execute((tx) => createWorkflow(tx, actorOf(c), input));
  return c.json(await presentWorkflow(db, row), 201);
});

/** The editor's Problems list: the server's own checks on a graph that is not saved. */
workflowsRoutes.post('/validate', async (c) => {
  const input = await readJson(c, workflowInputSchema.partial({ name: true }));
  return c.json({ problems: problemsOf(requestGraph(input)) });
});

workflowsRoutes.get('/:workflow_id', async (c) => c.json(redactWorkflow(await presentWorkflow(c.var.deps.db, await workflowOf(c)), await templateScopeOf(c))));

workflowsRoutes.put('/:workflow_id', async (c) => {
  const row = await workflowOf(c);
  const input = await readJson(c, workflowInputSchema);
  await c.var.deps.db.transaction().execute((tx) => updateWorkflow(tx, actorOf(c), row, input));
  return c.body(null, 204);
});

workflowsRoutes.delete('/:workflow_id', async (c) => {
  const row = await workflowOf(c);
  await c.var.deps.db.transaction().execute((tx) => deleteWorkflow(tx, actorOf(c), row));
  return c.body(null, 204);
});

workflowsRoutes.get('/:workflow_id/versions', async (c) => {
  const row = await workflowOf(c);
  const raw = c.req.query('count');
  const count = raw && /^\d+$/.test(raw) ? Math.min(Math.max(Number(raw), 1), 1000) : 1000;
  return c.json(await listVersions(c.var.deps.db, row.id, count));
});

workflowsRoutes.get('/:workflow_id/versions/:version_number', async (c) => {
  const row = await workflowOf(c);
  const version = versionToApi(await findVersion(c.var.deps.db, row.id, idParam(c, 'version_number')));
  const scope = await templateScopeOf(c);
  return c.json(version.definition ? { ...version, definition: redactWorkflow(version.definition, scope) } : version);
});

workflowsRoutes.post('/:workflow_id/run', async (c) => {
  const row = await workflowOf(c);
  await readJson(c, runWorkflowSchema);
  const started = await startWorkflowRun(c.var.deps, row, c.var.user);
  return c.json(runToApi(started), 201);
});

workflowsRoutes.get('/:workflow_id/runs', async (c) => {
  const row = await workflowOf(c);
  return c.json(await listRuns(c.var.deps.db, row.id, limitQuery(c, 1000, 100)));
});

workflowsRoutes.get('/:workflow_id/runs/:run_id', async (c) => c.json(redactRunDetails(await runDetails(c.var.deps.db, await runOf(c)), await templateScopeOf(c))));

workflowsRoutes.post('/:workflow_id/runs/:run_id/stop', async (c) => {
  const row = await runOf(c);
  await stopRun(c.var.deps, row, c.var.user);
  return c.body(null, 204);
});

workflowsRoutes.get('/:workflow_id/runs/:run_id/approvals', async (c) => {
  const row = await runOf(c);
  const approvals = await c.var.deps.db.selectFrom('workflow_approval').selectAll().where('run_id', '=', row.id).orderBy('id').execute();
  return c.json(approvals.map(approvalToApi));
});

workflowsRoutes.post('/:workflow_id/runs/:run_id/approvals/:node_id', async (c) => {
  const row = await runOf(c);
  const nodeId = idParam(c, 'node_id');
  const { status, comment } = await readJson(c, approvalDecisionSchema);
  return c.json(approvalToApi(await resolveApproval(c.var.deps, row, nodeId, c.var.user, status, comment ?? '')));
});

workflowsRoutes.get('/:workflow_id/runs/:run_id/artifacts', async (c) => c.json(await runArtifacts(c.var.deps.db, await runOf(c))));

/** `/api/project/:project_id/approvals`: the project's workflow gates waiting for a decision (decided on their run's route). */
export const projectApprovalsRoutes = new Hono<AppEnv>();

projectApprovalsRoutes.get('/', async (c) => c.json(await pendingApprovals(c.var.deps.db, c.var.project.id)));
