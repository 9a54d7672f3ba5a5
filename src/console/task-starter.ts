import type { Task } from './types.ts';

type Starter = Pick<Task, 'user_id' | 'user_name' | 'username' | 'integration_id' | 'build_task_id'>;

/**
 * Who or what started a task, for the history's User column and the task log: the user, else
 * the webhook integration, else the build whose success started an autorun deploy.
 * @example taskStarter(task, (key, vars) => t(`task.${key}`, vars)) // 'Autorun (build #12)'
 */
export function taskStarter(task: Starter, translate: (key: 'integration' | 'autorun', vars: { id: number }) => string): string {
  if (task.user_name || task.username) return (task.user_name || task.username)!;
  if (task.integration_id) return translate('integration', { id: task.integration_id });
  if (!task.user_id && task.build_task_id) return translate('autorun', { id: task.build_task_id });
  return '—';
}
