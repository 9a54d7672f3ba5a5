import type { WaitReason } from './types.ts';

/**
 * What a waiting task waits for, in the reader's language (the task's log says it in English).
 * @example waitingText({ kind: 'template', task_id: 811 }, t) // 'Waiting for task #811 of this template'
 */
export function waitingText(reason: WaitReason, t: (key: string, vars?: Record<string, string | number>) => string): string {
  switch (reason.kind) {
    case 'template': return reason.limit === undefined
      ? t('task.waitingFor.template', { id: reason.task_id })
      : t('task.waitingFor.templateLimit', { id: reason.task_id, limit: reason.limit });
    case 'lock': return t('task.waitingFor.lock', { lock: reason.lock, id: reason.task_id });
    case 'project': return t('task.waitingFor.project', { running: reason.running, limit: reason.limit });
    case 'slots': return t('task.waitingFor.slots', { running: reason.running, limit: reason.limit });
    case 'runner': return reason.tag ? t('task.waitingFor.runnerTag', { tag: reason.tag }) : t('task.waitingFor.runner');
  }
}
