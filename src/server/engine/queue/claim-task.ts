import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { TaskRow } from '../../db/schema.ts';
import { ACTIVE_STATUSES } from '../../domain/tasks/task-status.ts';

/**
 * Claims the oldest waiting task that the limits allow, in one conditional UPDATE: status
 * `waiting` → `starting`, `locked_by` = this worker. Limits: global `maxParallel` (0 = none),
 * the project's `max_parallel_tasks` (0 = none), the template's `concurrency_limit` active
 * tasks (unset: one, or any number with `allow_parallel_tasks`), room in every named lock the
 * template needs (an active task holds its template's locks). Among the tasks these allow, the
 * one with the lowest `queue_rank` goes first (priority raised by age, domain/tasks/priority.ts),
 * then the oldest. PostgreSQL serialises dispatchers of several servers
 * with a transaction-scoped advisory lock and skips rows another transaction holds.
 * @example const task = await claimNextTask(db, 'host:123', 10); // null when nothing can start
 */
export async function claimNextTask(db: Db, workerId: string, maxParallel: number, target: ClaimTarget = LOCAL): Promise<TaskRow | null> {
  if (!isPostgres(db)) return (await claimWith(db, workerId, maxParallel, false, target)) ?? null;
  // Most wakes find nothing this claimer may take (every server's dispatcher and every runner's
  // poll wake on each update): one plain read says so without a transaction and the lock.
  if (!(await pickTask(db, maxParallel, false, target).executeTakeFirst())) return null;
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(7301, 1)`.execute(tx);
    return (await claimWith(tx, workerId, maxParallel, true, target)) ?? null;
  });
}

/**
 * Who claims: a server's own engine takes only tasks whose template names no runner tag, unless
 * a default runner serves their project; a remote runner takes its project's (or, global, any
 * project's) tasks with one of its tags, and untagged ones when `use_remote_runner` is on or it
 * is a default runner. A global runner leaves a tagged task to an
 * online active runner of the task's own project with that tag (project runners first).
 */
export type ClaimTarget =
  | { kind: 'local' }
  | { kind: 'runner'; runnerId: number; projectId: number | null; tags: string[]; untagged: boolean; onlineSince: string };

const LOCAL: ClaimTarget = { kind: 'local' };

function claimWith(db: Db, workerId: string, maxParallel: number, postgres: boolean, target: ClaimTarget): Promise<TaskRow | undefined> {
  return db.updateTable('task')
    .set({ status: 'starting', locked_by: workerId, waiting_for: null, ...(target.kind === 'runner' ? { runner_id: target.runnerId } : {}) })
    .where('status', '=', 'waiting')
    .where('locked_by', 'is', null)
    .where('id', '=', pickTask(db, maxParallel, postgres, target))
    .returningAll()
    .executeTakeFirst();
}

/** The id of the first waiting task in the queue (priority, then age: domain/tasks/priority.ts) that the limits and the target allow (`lock`: PostgreSQL row lock, skipping rows others hold). */
function pickTask(db: Db, maxParallel: number, lock: boolean, target: ClaimTarget) {
  const active = [...ACTIVE_STATUSES];
  // The tasks of a template wait for the same things, so only its first in the queue may be
  // next: the query starts from one head per template, each found by one seek in the index on
  // (status, template, rank), and asks the limits below of those only, however long the queue.
  const heads = db.selectFrom('template as ht')
    .select((s) => ['ht.id as template_id', s.selectFrom('task as q').select((m) => m.fn.min<number>('q.queue_rank').as('r'))
      .where('q.status', '=', 'waiting').whereRef('q.template_id', '=', 'ht.id').as('rank')]);
  // (a cross join, so that SQLite reads the heads first instead of every waiting task)
  let pick = db.selectFrom(heads.as('head'))
    .crossJoin('task as t')
    .whereRef('t.template_id', '=', 'head.template_id').whereRef('t.queue_rank', '=', 'head.rank')
    .innerJoin('template as tp', 'tp.id', 't.template_id')
    .innerJoin('project as p', 'p.id', 't.project_id')
    .select('t.id')
    .where('t.status', '=', 'waiting')
    .where('t.locked_by', 'is', null)
    .where((w) => w.or([
      w.and([w('tp.concurrency_limit', 'is', null), w('tp.allow_parallel_tasks', '=', 1)]),
      w(w.selectFrom('task as a').select((s) => s.fn.countAll<number>().as('n')).whereRef('a.template_id', '=', 't.template_id').where('a.status', 'in', active),
        '<', sql<number>`coalesce(tp.concurrency_limit, 1)`),
    ]))
    // every lock its template needs has room: all are taken together, so no two tasks deadlock.
    // The templates held back by a full lock are found once per claim, however long the queue.
    .where('t.template_id', 'not in', db.selectFrom('template_lock as tl').innerJoin('project_lock as l', 'l.id', 'tl.lock_id').select('tl.template_id')
      .where((v) => v(v.selectFrom('task as h').innerJoin('template_lock as hl', 'hl.template_id', 'h.template_id')
        .select((s) => s.fn.countAll<number>().as('n')).whereRef('hl.lock_id', '=', 'l.id').where('h.status', 'in', active), '>=', v.ref('l.capacity'))))
    .where((w) => w.or([
      w('p.max_parallel_tasks', '=', 0),
      w(w.selectFrom('task as a').select((s) => s.fn.countAll<number>().as('n')).whereRef('a.project_id', '=', 't.project_id').where('a.status', 'in', active), '<', w.ref('p.max_parallel_tasks')),
    ]))
    .orderBy('t.queue_rank')
    .orderBy('t.id')
    .limit(1);
  const tag = sql<string>`coalesce(tp.runner_tag, '')`;
  // an active, registered default runner takes the untagged tasks of its project (or, global, of every project)
  const projectDefault = db.selectFrom('runner as d').select('d.id').where('d.is_default', '=', 1).where('d.active', '=', 1)
    .where('d.token_hash', 'is not', null).where(sql<boolean>`d.project_id = t.project_id`);
  const anyDefault = db.selectFrom('runner as d').select('d.id').where('d.is_default', '=', 1).where('d.active', '=', 1)
    .where('d.token_hash', 'is not', null).where(sql<boolean>`(d.project_id is null or d.project_id = t.project_id)`);
  if (target.kind === 'local') {
    pick = pick.where(tag, '=', '').where((w) => w.not(w.exists(anyDefault)));
  } else {
    if (target.projectId !== null) pick = pick.where('t.project_id', '=', target.projectId);
    // (no placeholder tag for a runner without tags: PostgreSQL refuses NUL bytes in text)
    pick = pick.where((w) => w.or([
      ...(target.tags.length ? [w(tag, 'in', target.tags)] : []),
      ...(target.untagged ? [w(tag, '=', '')] : []),
    ]));
    if (target.projectId === null) {
      // a project's own default runner comes before global ones for its untagged tasks
      pick = pick.where((w) => w.or([w(tag, '!=', ''), w.not(w.exists(projectDefault))]));
      pick = pick.where((w) => w.or([
        w(tag, '=', ''),
        w.not(w.exists(w.selectFrom('runner as r').select('r.id')
          .whereRef('r.project_id', '=', 't.project_id').where('r.active', '=', 1).where('r.touched', '>=', target.onlineSince)
          .where('r.tags', 'like', sql<string>`'%"' || tp.runner_tag || '"%'`))),
      ]));
    }
  }
  if (maxParallel > 0) {
    pick = pick.where((w) => w(w.selectFrom('task as a').select((s) => s.fn.countAll<number>().as('n')).where('a.status', 'in', active), '<', maxParallel));
  }
  if (lock) pick = pick.forUpdate('t').skipLocked();
  return pick;
}
