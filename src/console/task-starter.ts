import type { Task } from './types.ts';

type Starter = Pick<Task, 'user_name' | 'username' | 'integration_id' | 'schedule_id' | 'build_task_id'>;
export type StarterKey = 'integration' | 'schedule' | 'autorun';

/**
 * Who or what started a task, in the one wording every screen uses (history, the task log, the
 * wall board): the user, else the webhook integration, else the schedule, else the build whose
 * success started an autorun deploy; '' when nothing is known (a user since deleted).
 * @example taskStarter(task, (key, vars) => t(`task.${key}`, vars)) // 'Autorun (build #12)'
 */
export function taskStarter(task: Starter, translate: (key: StarterKey, vars: { id: number }) => string): string {
  if (task.user_name || task.username) return (task.user_name || task.username)!;
  if (task.integration_id) return translate('integration', { id: task.integration_id });
  if (task.schedule_id) return translate('schedule', { id: task.schedule_id });
  if (task.build_task_id) return translate('autorun', { id: task.build_task_id });
  return '';
}
