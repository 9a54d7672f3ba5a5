import type { Db } from '../../db/database.ts';
import type { TaskRow } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { recordEvent } from '../events/event.repository.ts';
import { now } from '../../lib/time.ts';
import { ownValue } from '../../lib/own-value.ts';

/** Every status a task can hold (seed 000 §4, reference §4.1). */
export const TASK_STATUSES = [
  'waiting', 'starting', 'waiting_confirmation', 'confirmed', 'rejected', 'running', 'stopping', 'stopped', 'success', 'error', 'canceled',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses that end a task: nothing leaves them. */
export const FINISHED_STATUSES: readonly TaskStatus[] = ['stopped', 'success', 'error', 'rejected', 'canceled'];

/** Statuses of a task that holds a run slot (claimed and not finished). */
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['starting', 'running', 'waiting_confirmation', 'confirmed', 'stopping'];

/** Where each status may go. Finished statuses are terminal (2.10 leaves success/error open; we do not). */
const ALLOWED: Record<TaskStatus, readonly TaskStatus[]> = {
  waiting: ['starting', 'stopping', 'stopped', 'error'],
  starting: ['running', 'stopping', 'stopped', 'error'],
  running: ['waiting_confirmation', 'stopping', 'stopped', 'success', 'error'],
  waiting_confirmation: ['confirmed', 'rejected', 'stopping', 'stopped', 'error'],
  confirmed: ['running', 'stopping', 'stopped', 'error'],
  stopping: ['stopped', 'error'],
  stopped: [], success: [], error: [], rejected: [], canceled: [],
};

/** @example isFinished('success') === true */
export function isFinished(status: string): boolean {
  return (FINISHED_STATUSES as readonly string[]).includes(status);
}

/** @example isActive('running') === true; isActive('waiting') === false */
export function isActive(status: string): boolean {
  return (ACTIVE_STATUSES as readonly string[]).includes(status);
}

/** @example canMove('running', 'waiting') === false */
export function canMove(from: string, to: string): boolean {
  return (ownValue(ALLOWED, from) ?? []).includes(to as TaskStatus);
}

export interface StatusDeps {
  db: Db;
  bus: EventBus;
}

/**
 * Moves a task to `to` when the transition is allowed, as a compare-and-set on the status it
 * read (so a stop and a finishing run cannot both win). Entering `running` the first time sets
 * `start` and records "is running"; a finished status sets `end` and records "finished - X".
 * Publishes the bus `update`. Returns the new row, or null when the move was not allowed.
 * `known` is the row as the caller has just read it: the first attempt trusts it instead of
 * reading again (the compare-and-set still checks it), unless it forbids the move.
 * @example await setTaskStatus(deps, task.id, 'running');
 */
export async function setTaskStatus(deps: StatusDeps, taskId: number, to: TaskStatus, patch: Partial<Pick<TaskRow, 'commit_hash' | 'commit_message'>> = {}, known?: TaskRow): Promise<TaskRow | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = attempt === 0 && known?.id === taskId && canMove(known.status, to)
      ? known
      : await deps.db.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirst();
    if (!current || !canMove(current.status, to)) return null;
    const time = now();
    const firstRun = to === 'running' && !current.start;
    const finished = isFinished(to);
    const updated = await deps.db.transaction().execute(async (tx) => {
      const moved = await tx.updateTable('task')
        .set({
          status: to, ...patch,
          ...(firstRun ? { start: time } : {}),
          ...(finished ? { end: time, locked_by: null } : {}),
        })
        .where('id', '=', taskId).where('status', '=', current.status)
        .returningAll()
        // the event names the template: read with the update instead of in a statement of its own
        .returning((eb) => eb.selectFrom('template').select('name').whereRef('template.id', '=', 'task.template_id').as('template_name'))
        .executeTakeFirst();
      if (!moved) return undefined;
      const { template_name: templateName, ...row } = moved;
      // a confirmed plan is a person's decision: the activity log and the audit trail name it
      if (firstRun || finished || to === 'confirmed') {
        const description = firstRun
          ? `Task ID ${row.id} (${templateName ?? ''}) is running`
          : to === 'confirmed' ? `Task ID ${row.id} (${templateName ?? ''}) confirmed`
            : `Task ID ${row.id} (${templateName ?? ''}) finished - ${to.toUpperCase()}`;
        await recordEvent(tx, { projectId: row.project_id, userId: row.user_id, integrationId: row.integration_id, objectType: 'task', objectId: row.id, objectName: row.playbook, description });
      }
      return row;
    });
    if (updated) {
      publishTaskUpdate(deps.bus, updated);
      return updated;
    }
  }
  return null;
}

/** Announces a task's current status on the bus (reference §4.7 `update` shape). */
export function publishTaskUpdate(bus: EventBus, task: TaskRow): void {
  bus.publish({
    type: 'update', project_id: task.project_id, task_id: task.id, template_id: task.template_id,
    status: task.status, start: task.start, end: task.end, version: task.version,
  });
}
