/**
 * What a waiting task waits for, as the queue's claim sees it (engine/queue/explain-waiting.ts
 * and the runner monitor decide it; `task.waiting_for` holds it while the task waits):
 * - `template`: the template's limit is reached (`task_id`: its oldest active task; `limit`: the
 *   template's own `concurrency_limit`, left out for one that merely runs one task at a time);
 * - `lock`: a named lock of the project the template needs is taken (`task_id`: its oldest holder);
 * - `project`: the project's `max_parallel_tasks` are running;
 * - `slots`: the server's `max_parallel_tasks` are running;
 * - `runner`: no online runner can take it (`tag`: the runner tag its template asks for).
 */
export type WaitReason =
  | { kind: 'template'; task_id: number; limit?: number }
  | { kind: 'lock'; lock: string; task_id: number }
  | { kind: 'project'; running: number; limit: number }
  | { kind: 'slots'; running: number; limit: number }
  | { kind: 'runner'; tag: string | null };

/**
 * The stored reason, or null (junk reads as none).
 * @example parseWaitReason('{"kind":"template","task_id":811}') // { kind: 'template', task_id: 811 }
 */
export function parseWaitReason(text: string | null | undefined): WaitReason | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as WaitReason;
    return value && typeof value === 'object' && ['template', 'lock', 'project', 'slots', 'runner'].includes(value.kind) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The reason as the task's log says it.
 * @example waitReasonLine({ kind: 'slots', running: 10, limit: 10 }) // 'Waiting for a free slot: 10 tasks running (the server runs at most 10)'
 */
export function waitReasonLine(reason: WaitReason): string {
  switch (reason.kind) {
    case 'template': return reason.limit === undefined
      ? `Waiting for task ${reason.task_id} of this template (the template runs one task at a time)`
      : `Waiting: template limit ${reason.limit}: task ${reason.task_id} running`;
    case 'lock': return `Waiting for lock ${reason.lock} held by task ${reason.task_id}`;
    case 'project': return `Waiting for a free slot in this project: ${reason.running} of ${reason.limit} tasks running`;
    case 'slots': return `Waiting for a free slot: ${reason.running} tasks running (the server runs at most ${reason.limit})`;
    case 'runner': return `Waiting for a runner: ${reason.tag ? `no active runner with the tag "${reason.tag}" is online` : 'no active runner is online'}`;
  }
}
