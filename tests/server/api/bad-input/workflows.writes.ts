import type { Db } from '../../../../src/server/db/database.ts';
import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';
import { insertWorkflowRows } from '../../../support/workflow-rows.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;

/**
 * Runs waiting at their approval, one for each body sent to the approval route: a decision
 * settles its approval, so every request (bad or good) names the next one.
 */
let waiting: { workflow: number; run: number; node: number }[] = [];
let sent = 0;
let named = 0;
const WAITING_RUNS = 40;

export async function prepareWorkflows(db: Db, x: BadInputContext): Promise<Record<string, number>> {
  waiting = [];
  sent = 0;
  for (let i = 0; i < WAITING_RUNS; i++) {
    const wf = await insertWorkflowRows(db, x.w.projectId, x.ids.template);
    waiting.push({ workflow: wf.workflow, run: wf.workflowRun, node: wf.workflowNode });
  }
  return {};
}

const graph = () => ({ name: `Flow ${++named}`, nodes: [{ id: 1, kind: 'delay', name: 'wait', delay_seconds: 1 }], edges: [] });
const GRAPH_FIELDS = { name: 'string', description: 'string', start_version: 'string', message: 'string', nodes: 'array', edges: 'array' } as const;
const GRAPH_LIMITS = { name: 255, description: 65536, start_version: 255, message: 1024 };

/** Every POST/PUT of the workflow routes that reads a body. */
export const WORKFLOW_WRITES: WriteRoute[] = [
  { route: 'POST /api/project/{id}/workflows', path: (x) => `${p(x)}/workflows`, valid: graph, fields: GRAPH_FIELDS, maxLength: GRAPH_LIMITS },
  { route: 'POST /api/project/{id}/workflows/validate', path: (x) => `${p(x)}/workflows/validate`, valid: graph, fields: GRAPH_FIELDS, maxLength: GRAPH_LIMITS },
  {
    route: 'PUT /api/project/{id}/workflows/{w}', path: (x) => `${p(x)}/workflows/${x.ids.workflow}`,
    valid: () => ({ name: `Renamed ${++named}` }), fields: { name: 'string', description: 'string', message: 'string' }, maxLength: GRAPH_LIMITS,
  },
  {
    route: 'POST /api/project/{id}/workflows/{w}/run', path: (x) => `${p(x)}/workflows/${x.ids.spareWorkflow}/run`,
    valid: () => ({ message: 'go' }), fields: { message: 'string' }, maxLength: { message: 1024 },
  },
  {
    route: 'POST /api/project/{id}/workflows/{w}/runs/{r}/approvals/{node}',
    path: (x) => {
      const at = waiting[sent % WAITING_RUNS]!;
      return `${p(x)}/workflows/${at.workflow}/runs/${at.run}/approvals/${at.node}`;
    },
    valid: () => {
      sent += 1;
      return { status: 'approved', comment: 'looks good' };
    },
    fields: { status: 'string', comment: 'string' }, maxLength: { comment: 4096 },
  },
];
