import type { APIRoute } from 'astro';
import { apiSend } from '../../../console/runner-api.ts';
import { flashPath } from '../../../console/flash.ts';
import { safeBackPath } from '../../../console/preferences.ts';

const ACTIONS: Record<string, { path: string; body?: unknown; flash: 'task_stopped' | 'task_confirmed' | 'task_rejected' }> = {
  stop: { path: 'stop', body: { force: false }, flash: 'task_stopped' },
  force_stop: { path: 'stop', body: { force: true }, flash: 'task_stopped' },
  confirm: { path: 'confirm', flash: 'task_confirmed' },
  reject: { path: 'reject', flash: 'task_rejected' },
};

/** POST from the task log or active-tasks forms without JS: stop/confirm/reject, then back. */
export const POST: APIRoute = async (ctx) => {
  const form = await ctx.request.formData();
  const taskId = Number(form.get('task'));
  const action = ACTIONS[String(form.get('action'))];
  const back = safeBackPath(String(form.get('back') ?? ''));
  if (!action || !Number.isInteger(taskId)) return ctx.redirect(flashPath(back, 'action_failed'), 303);
  const projectId = Number(ctx.params.id);
  const res = await apiSend(ctx, 'POST', `/api/project/${projectId}/tasks/${taskId}/${action.path}`, action.body);
  return ctx.redirect(flashPath(back, res.ok ? action.flash : 'action_failed'), 303);
};
