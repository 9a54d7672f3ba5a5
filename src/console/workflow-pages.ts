import type { AstroGlobal } from 'astro';
import { apiSend, readErrorText } from './runner-api.ts';
import { flashPath } from './flash.ts';
import { idField, postedForm, textField } from './form-loop.ts';
import type { RunGraphEdge, RunGraphNode } from './workflow-graph.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response'>;

/** What the workflow pages read from the runner API. */
export interface WorkflowSummary {
  id: number;
  name: string;
  description: string;
  start_version: string | null;
  nodes: { id: number; kind: string; name: string; template_id: number | null; pos_x: number; pos_y: number }[];
  edges: RunGraphEdge[];
}

export interface WorkflowRunSummary {
  id: number;
  workflow_template_id: number;
  status: string;
  created: string;
  start: string | null;
  end: string | null;
  user_id: number | null;
  version: string | null;
}

export interface RunDetails {
  run: WorkflowRunSummary;
  workflow_name: string;
  nodes: {
    node: { id: number; kind: string; name: string; approval_message: string; approval_four_eyes: boolean; note: string; pos_x: number; pos_y: number; delay_seconds?: number };
    task: { id: number; status: string } | null;
    approval: { status: string; comment: string; resolved_by_user_id: number | null } | null;
    state: { status: string; start: string | null; end: string | null; due: string | null; reason: string; outputs: Record<string, unknown> | null };
  }[];
  edges: RunGraphEdge[];
  history: RunHistoryEntry[];
}

export interface RunHistoryEntry { id: number; node_id: number | null; kind: string; message: string; created: string; username: string | null }

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/**
 * Why a node ended, in the page's language: the server records it in English words ("task
 * success", "rejected", "delay over"); a reason it words itself (why a task could not start)
 * is shown as it came.
 * @example nodeReason('task success', t) // "Task ended: Success"
 */
export function nodeReason(reason: string, t: Translate): string {
  const task = /^task (\w+)$/.exec(reason);
  if (task && task[1] !== 'deleted') return t('workflows.reasonTask', { status: t(`status.${task[1]}`, { defaultValue: task[1] }) });
  const known: Record<string, string> = {
    'task deleted': 'reasonTaskDeleted', approved: 'reasonApproved', rejected: 'reasonRejected', 'delay over': 'reasonDelayOver',
    'approval timed out': 'reasonTimedOut', 'its template no longer exists': 'reasonNoTemplate', 'the user who started the run no longer exists': 'reasonNoUser',
  };
  return Object.hasOwn(known, reason) ? t(`workflows.${known[reason]}`) : reason;
}

/**
 * A line of the run's history in the page's language, told from its kind and the run's own
 * data (the stored message is English); a kind this console does not know shows the message.
 * @example historyText({ kind: 'started', username: 'ann', … }, details, t) // "Run started by ann"
 */
export function historyText(entry: RunHistoryEntry, details: RunDetails, t: Translate): string {
  const at = details.nodes.find((n) => n.node.id === entry.node_id);
  const node = at ? at.node.name || `${t(`workflows.kind_${at.node.kind}`, { defaultValue: at.node.kind })} ${at.node.id}` : '';
  const user = entry.username ?? '—';
  const withText = (line: string, text: string | undefined) => (text ? `${line}: ${text}` : line);
  switch (entry.kind) {
    case 'started': return t('workflows.historyStarted', { user });
    case 'stopped': return t('workflows.historyStopped', { user });
    case 'finished': return t(details.run.status === 'success' ? 'workflows.historySucceeded' : 'workflows.historyFailed');
    case 'approval_requested': if (at) return withText(t('workflows.historyApprovalRequested', { node }), at.node.approval_message); break;
    case 'delay_started': if (at) return t('workflows.historyDelayStarted', { node, seconds: at.node.delay_seconds ?? '?' }); break;
    case 'task_queued': if (at?.task) return t('workflows.historyTaskQueued', { node, id: at.task.id }); break;
    case 'node_failed': if (at) return t('workflows.historyNodeFailed', { node, reason: nodeReason(at.state.reason, t) }); break;
    case 'approved':
    case 'rejected': if (at) return withText(t(`workflows.history_${entry.kind}`, { node, user }), at.approval?.comment); break;
    case 'timed_out': if (at) return t('workflows.historyTimedOut', { node }); break;
    case 'delay_over': if (at) return t('workflows.historyDelayOver', { node }); break;
  }
  return entry.message;
}

/** Statuses of a run that may still change: the page stays live. */
export const ACTIVE_RUN = ['running', 'approval'];

/** The run's nodes as the graph draws them (note nodes stay, unrun). */
export function graphNodes(details: RunDetails): RunGraphNode[] {
  return details.nodes.map(({ node, task, state }) => ({
    id: node.id, kind: node.kind, name: node.name, status: node.kind === 'note' ? 'note' : state.status, due: state.due,
    task_id: task?.id ?? null, outputs: state.outputs ? Object.keys(state.outputs).length : 0, x: node.pos_x, y: node.pos_y,
  }));
}

/**
 * The `run` form of a workflow list or page: starts a run as the user and goes to its page;
 * a refusal comes back as an error snackbar with the server's reason.
 */
export async function startRunFromForm(astro: AstroLike, projectId: number, back: string): Promise<Response | null> {
  const posted = await postedForm(astro.request);
  if (!posted || posted.get('_form') !== 'run') return null;
  const id = idField(posted, 'id');
  if (id === null) return astro.redirect(flashPath(back, 'action_failed'), 303);
  const res = await apiSend(astro, 'POST', `/api/project/${projectId}/workflows/${id}/run`);
  if (!res.ok) return astro.redirect(flashPath(back, 'res_action_failed', await readErrorText(res)), 303);
  const run = (await res.json()) as { id: number };
  return astro.redirect(`/project/${projectId}/workflows/${id}/runs/${run.id}`, 303);
}

/**
 * The run page's forms: `decide` (approve or reject the approval at `node`, with a comment)
 * and `stop`. Each calls the API as the user and comes back to the page with a snackbar.
 */
export async function runPageAction(astro: AstroLike, base: string, self: string): Promise<Response | null> {
  const posted = await postedForm(astro.request);
  const form = posted?.get('_form');
  if (!posted || (form !== 'decide' && form !== 'stop')) return null;
  let res: Response;
  if (form === 'stop') {
    res = await apiSend(astro, 'POST', `${base}/stop`);
  } else {
    const node = idField(posted, 'node');
    const decision = textField(posted, 'decision');
    if (node === null || (decision !== 'approved' && decision !== 'rejected')) return astro.redirect(flashPath(self, 'action_failed'), 303);
    res = await apiSend(astro, 'POST', `${base}/approvals/${node}`, { status: decision, comment: textField(posted, 'comment').slice(0, 4096) });
  }
  if (!res.ok) return astro.redirect(flashPath(self, 'res_action_failed', await readErrorText(res)), 303);
  return astro.redirect(flashPath(self, form === 'stop' ? 'workflow_run_stopped' : 'workflow_approval_decided'), 303);
}
