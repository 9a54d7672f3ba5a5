import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import { ACTIVE_STATUSES, publishTaskUpdate } from '../../domain/tasks/task-status.ts';
import { waitReasonLine, type WaitReason } from '../../domain/tasks/wait-reason.ts';
import { appendTaskLine } from '../remote/remote-dispatch.ts';
import { templateConcurrency } from '../../domain/templates/concurrency-fields.ts';

/** The first waiting tasks in the queue looked at per pass: the ones that start next, and more than a screen shows. */
const EXPLAINED_PER_PASS = 200;

/**
 * Says why each waiting task the server would run has not started, with the claim's own limits
 * (claim-task.ts), in the order it asks them: the template's limit, a named lock, the project's limit, the server's `max_parallel_tasks`. Tasks for runners (a runner
 * tag) are the runner monitor's to explain. Called after each dispatch round found nothing to
 * start; a reason is written only when it changed.
 * @example await explainWaitingTasks(deps, 10);
 */
export async function explainWaitingTasks(deps: Deps, maxParallel: number): Promise<void> {
  const { db } = deps;
  const waiting = await db.selectFrom('task as t').innerJoin('template as tp', 'tp.id', 't.template_id').innerJoin('project as p', 'p.id', 't.project_id')
    .select(['t.id', 't.project_id', 't.template_id', 'tp.allow_parallel_tasks', 'tp.concurrency_limit', 'tp.concurrency_policy', 'p.max_parallel_tasks', sql<string>`coalesce(tp.runner_tag, '')`.as('tag')])
    .where('t.status', '=', 'waiting').where('t.locked_by', 'is', null).orderBy('t.queue_rank').orderBy('t.id').limit(EXPLAINED_PER_PASS).execute();
  if (!waiting.length) return;
  const active = await db.selectFrom('task').select(['id', 'template_id', 'project_id']).where('status', 'in', [...ACTIVE_STATUSES]).orderBy('id').execute();
  const ofTemplate = new Map<number, number[]>();
  const perProject = new Map<number, number>();
  for (const a of active) {
    ofTemplate.set(a.template_id, [...(ofTemplate.get(a.template_id) ?? []), a.id]);
    perProject.set(a.project_id, (perProject.get(a.project_id) ?? 0) + 1);
  }
  const locks = await readLockRoom(db, [...waiting.map((t) => t.template_id), ...active.map((a) => a.template_id)], active);
  for (const t of waiting) {
    if (t.tag) continue;
    const running = perProject.get(t.project_id) ?? 0;
    const { limit, own } = templateConcurrency(t);
    const busy = ofTemplate.get(t.template_id) ?? [];
    const lock = locks.fullFor(t.template_id);
    let reason: WaitReason | null = null;
    if (limit !== null && busy.length >= limit) reason = { kind: 'template', task_id: busy[0]!, ...(own ? { limit } : {}) };
    else if (lock) reason = { kind: 'lock', lock: lock.name, task_id: lock.holders[0]! };
    else if (t.max_parallel_tasks > 0 && running >= t.max_parallel_tasks) reason = { kind: 'project', running, limit: t.max_parallel_tasks };
    else if (maxParallel > 0 && active.length >= maxParallel) reason = { kind: 'slots', running: active.length, limit: maxParallel };
    if (reason) await noteWaitReason(deps, t, reason);
  }
}

/**
 * Stores what a waiting task waits for and, when that changed, says it in the task's log and
 * tells the lists (a compare-and-set, so of several servers one writes the line).
 * @example await noteWaitReason(deps, task, { kind: 'template', task_id: 811 });
 */
export async function noteWaitReason(deps: Deps, task: { id: number; project_id: number }, reason: WaitReason): Promise<boolean> {
  const text = JSON.stringify(reason);
  const row = await deps.db.updateTable('task').set({ waiting_for: text })
    .where('id', '=', task.id).where('status', '=', 'waiting')
    .where((w) => w.or([w('waiting_for', 'is', null), w('waiting_for', '!=', text)]))
    .returningAll().executeTakeFirst();
  if (!row) return false;
  await appendTaskLine(deps, task, waitReasonLine(reason));
  publishTaskUpdate(deps.bus, row);
  return true;
}

/**
 * The named locks of these templates with their holders (active tasks whose template needs
 * them): `fullFor` names the first lock a template needs that has no room.
 */
async function readLockRoom(db: Deps['db'], templateIds: number[], active: { id: number; template_id: number }[]) {
  const uses = templateIds.length ? await db.selectFrom('template_lock as tl').innerJoin('project_lock as l', 'l.id', 'tl.lock_id')
    .select(['tl.template_id', 'tl.lock_id', 'l.name', 'l.capacity']).where('tl.template_id', 'in', [...new Set(templateIds)]).orderBy('l.name').execute() : [];
  const holders = new Map<number, number[]>();
  for (const a of active) {
    for (const u of uses) if (u.template_id === a.template_id) holders.set(u.lock_id, [...(holders.get(u.lock_id) ?? []), a.id]);
  }
  return {
    fullFor(templateId: number): { name: string; holders: number[] } | null {
      const full = uses.find((u) => u.template_id === templateId && (holders.get(u.lock_id)?.length ?? 0) >= u.capacity);
      return full ? { name: full.name, holders: holders.get(full.lock_id)! } : null;
    },
  };
}
