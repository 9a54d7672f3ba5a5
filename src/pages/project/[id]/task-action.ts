import type { APIRoute } from 'astro';
import { apiSend, readErrorText } from '../../../console/runner-api.ts';
import { flashPath } from '../../../console/flash.ts';
import { safeBackPath } from '../../../console/preferences.ts';
import { rerunBody } from '../../../console/task-rerun.ts';
import { withParam } from '../../../console/paging.ts';
import type { Task } from '../../../console/types.ts';
import { ownValue } from '../../../server/lib/own-value.ts';

const ACTIONS: Record<string, { path: string; body?: unknown; flash: 'task_stopped' | 'task_confirmed' | 'task_rejected' }> = {
  stop: { path: 'stop', body: { force: false }, flash: 'task_stopped' },
  force_stop: { path: 'stop', body: { force: true }, flash: 'task_stopped' },
  confirm: { path: 'confirm', flash: 'task_confirmed' },
  reject: { path: 'reject', flash: 'task_rejected' },
};

/** POST from the task log or active-tasks forms: stop/confirm/reject/rerun/relaunch_failed, then back. */
export const POST: APIRoute = async (ctx) => {
  const form = await ctx.request.formData();
  const taskId = Number(form.get('task'));
  const name = String(form.get('action'));
  const back = safeBackPath(String(form.get('back') ?? ''));
  const projectId = Number(ctx.params.id);
  if (!Number.isInteger(taskId)) return ctx.redirect(flashPath(back, 'action_failed'), 303);
  if (name === 'rerun') return rerun(ctx, projectId, taskId, back);
  if (name === 'relaunch_failed') return relaunchFailed(ctx, projectId, taskId, back);
  const action = ownValue(ACTIONS, name);
  if (!action) return ctx.redirect(flashPath(back, 'action_failed'), 303);
  const res = await apiSend(ctx, 'POST', `/api/project/${projectId}/tasks/${taskId}/${action.path}`, action.body);
  return ctx.redirect(flashPath(back, res.ok ? action.flash : 'action_failed'), 303);
};

/** Starts the task again and opens the new task's log over the same page. */
async function rerun(ctx: Parameters<APIRoute>[0], projectId: number, taskId: number, back: string): Promise<Response> {
  const source = await apiSend(ctx, 'GET', `/api/project/${projectId}/tasks/${taskId}`);
  if (!source.ok) return ctx.redirect(flashPath(back, 'action_failed'), 303);
  const res = await apiSend(ctx, 'POST', `/api/project/${projectId}/tasks`, rerunBody((await source.json()) as Task));
  if (!res.ok) return ctx.redirect(flashPath(back, 'action_failed'), 303);
  const created = (await res.json()) as Task;
  return ctx.redirect(withParam(new URL(back, ctx.url), 't', String(created.id)), 303);
}

/** Relaunch on failed hosts: the API picks the hosts; the new task's log opens with a flash naming them. */
async function relaunchFailed(ctx: Parameters<APIRoute>[0], projectId: number, taskId: number, back: string): Promise<Response> {
  const res = await apiSend(ctx, 'POST', `/api/project/${projectId}/tasks/${taskId}/relaunch_failed`);
  if (!res.ok) return ctx.redirect(flashPath(back, 'res_action_failed', await readErrorText(res)), 303);
  const created = (await res.json()) as Task & { limit?: string };
  const next = withParam(new URL(back, ctx.url), 't', String(created.id));
  return ctx.redirect(flashPath(next, 'task_relaunched', created.limit ?? ''), 303);
}
