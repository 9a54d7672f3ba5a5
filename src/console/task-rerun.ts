import type { Task } from './types.ts';

type RerunSource = Task & { environment?: string | null; arguments?: string | null; git_branch?: string | null; inventory_id?: number | null };

// A deploy's build_task_id is kept: Redeploy ships the same build again.

/**
 * The POST /api/project/{id}/tasks body that starts the same task again: the template and the
 * overrides the task was started with.
 * @example await apiSend(Astro, 'POST', `/api/project/${pid}/tasks`, rerunBody(task));
 */
export function rerunBody(task: RerunSource): Record<string, unknown> {
  const body: Record<string, unknown> = { template_id: task.template_id };
  for (const key of ['message', 'environment', 'arguments', 'git_branch', 'inventory_id', 'build_task_id'] as const) {
    const value = task[key];
    if (value !== null && value !== undefined && value !== '') body[key] = value;
  }
  return body;
}
