import { Permission, projectRead, projectWrite, type MatrixRow } from '../../../support/permission-matrix.ts';
import { insertProjectResources } from '../../../support/resource-rows.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
const setup: MatrixRow['setup'] = (db, w) => insertProjectResources(db, w.projectId);
const read = (route: string, sub: (ids: Record<string, number>) => string): MatrixRow => ({ route, setup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, expect: projectRead() });
const write = (route: string, bits: number, status: number, sub: (ids: Record<string, number>) => string, body?: (ids: Record<string, number>) => unknown): MatrixRow => ({
  route, setup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, body: body && ((_, __, ids) => body(ids)), expect: projectWrite(bits, status),
});
const graph = (ids: Record<string, number>) => ({
  name: 'x', nodes: [{ id: 1, kind: 'task', template_id: ids.template }, { id: 2, kind: 'delay', delay_seconds: 1 }], edges: [{ source_node_id: 1, destination_node_id: 2 }],
});

/** Workflows × every caller: members read, ManageResources edits, RunTasks runs, stops and decides approvals. */
export const WORKFLOWS_MATRIX: MatrixRow[] = [
  read('GET /api/project/{id}/workflows', () => '/workflows'),
  read('GET /api/project/{id}/workflows/{w}', (ids) => `/workflows/${ids.workflow}`),
  read('GET /api/project/{id}/workflows/{w}/versions', (ids) => `/workflows/${ids.workflow}/versions`),
  read('GET /api/project/{id}/workflows/{w}/versions/{n}', (ids) => `/workflows/${ids.workflow}/versions/1`),
  read('GET /api/project/{id}/workflows/{w}/runs', (ids) => `/workflows/${ids.workflow}/runs`),
  read('GET /api/project/{id}/workflows/{w}/runs/{r}', (ids) => `/workflows/${ids.workflow}/runs/${ids.workflowRun}`),
  read('GET /api/project/{id}/workflows/{w}/runs/{r}/approvals', (ids) => `/workflows/${ids.workflow}/runs/${ids.workflowRun}/approvals`),
  read('GET /api/project/{id}/workflows/{w}/runs/{r}/artifacts', (ids) => `/workflows/${ids.workflow}/runs/${ids.workflowRun}/artifacts`),
  read('GET /api/project/{id}/approvals', () => '/approvals'),
  read('GET /api/project/{id}/tasks/{t}/outputs', (ids) => `/tasks/${ids.task}/outputs`),
  write('POST /api/project/{id}/workflows', Permission.ManageResources, 201, () => '/workflows', graph),
  write('POST /api/project/{id}/workflows/validate', Permission.ManageResources, 200, () => '/workflows/validate', graph),
  write('PUT /api/project/{id}/workflows/{w}', Permission.ManageResources, 204, (ids) => `/workflows/${ids.workflow}`, () => ({ name: 'renamed' })),
  write('DELETE /api/project/{id}/workflows/{unused w}', Permission.ManageResources, 204, (ids) => `/workflows/${ids.spareWorkflow}`),
  write('POST /api/project/{id}/workflows/{w}/run', Permission.RunTasks, 201, (ids) => `/workflows/${ids.workflow}/run`),
  write('POST /api/project/{id}/workflows/{w}/runs/{r}/stop', Permission.RunTasks, 204, (ids) => `/workflows/${ids.workflow}/runs/${ids.workflowRun}/stop`),
  write('POST /api/project/{id}/workflows/{w}/runs/{r}/approvals/{node}', Permission.RunTasks, 200, (ids) => `/workflows/${ids.workflow}/runs/${ids.workflowRun}/approvals/${ids.workflowNode}`, () => ({ status: 'approved' })),
];
