import type { Db, Tx } from '../../db/database.ts';
import type { TaskRow } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { taskRowToTask, type TaskWithTpl } from './task.ts';
import { scopeIds, type TemplateScope } from '../templates/template-visibility.ts';

/** A task of the project, or 404 (tasks of other projects are invisible). */
export async function findProjectTask(db: Db, projectId: number, taskId: number): Promise<TaskRow> {
  const row = await db.selectFrom('task').selectAll().where('id', '=', taskId).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export interface TaskListFilter {
  projectId?: number;
  templateId?: number;
  /** only tasks of these templates (domain/templates/template-visibility.ts); absent or null: all */
  templates?: TemplateScope;
  ids?: readonly number[];
  statuses?: readonly string[];
  limit: number;
  /** rows to skip (newest first), for paged lists */
  offset?: number;
}

/**
 * Tasks newest first with their template's name/type/app/playbook, the starter's name and
 * the build task (Semaphore's TaskWithTpl). Also used by the template sub-routes.
 * @example await listTasksWithTpl(db, { projectId: 1, limit: 1000 });
 */
export async function listTasksWithTpl(db: Db | Tx, filter: TaskListFilter): Promise<TaskWithTpl[]> {
  let query = db.selectFrom('task')
    .innerJoin('template', 'template.id', 'task.template_id')
    .leftJoin('user', 'user.id', 'task.user_id')
    .selectAll('task')
    .select(['template.playbook as tpl_playbook', 'template.name as tpl_alias', 'template.type as tpl_type', 'template.app as tpl_app', 'user.name as user_name']);
  if (filter.projectId !== undefined) query = query.where('task.project_id', '=', filter.projectId);
  if (filter.templateId !== undefined) query = query.where('task.template_id', '=', filter.templateId);
  if (filter.templates) query = query.where('task.template_id', 'in', scopeIds(filter.templates));
  if (filter.ids) query = query.where('task.id', 'in', [...filter.ids]);
  if (filter.statuses) query = query.where('task.status', 'in', [...filter.statuses]);
  const rows = await query.orderBy('task.id', 'desc').limit(filter.limit).offset(filter.offset ?? 0).execute();
  const buildIds = [...new Set(rows.map((r) => r.build_task_id).filter((id): id is number => id !== null))];
  const builds = buildIds.length ? await db.selectFrom('task').selectAll().where('id', 'in', buildIds).execute() : [];
  const buildById = new Map(builds.map((b) => [b.id, taskRowToTask(b)]));
  return rows.map((row) => {
    const { tpl_playbook, tpl_alias, tpl_type, tpl_app, user_name, ...task } = row;
    return {
      ...taskRowToTask(task),
      tpl_playbook, tpl_alias, tpl_type, tpl_app, user_name: user_name ?? null,
      build_task: task.build_task_id ? buildById.get(task.build_task_id) ?? null : null,
    };
  });
}

/** Rows of a task's output after `afterId`, in order, for paging and streaming. */
export function readOutputPage(db: Db, taskId: number, afterId: number, limit: number) {
  return db.selectFrom('task_output').select(['id', 'task_id', 'time', 'output'])
    .where('task_id', '=', taskId).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

export interface OutputWindow {
  rows: { task_id: number; time: string; output: string }[];
  /** the log's line count when the window was read */
  total: number;
}

/** Line count and last line id of finished tasks' logs (they no longer change), per database. */
const finishedLogStats = new WeakMap<Db, Map<number, { total: number; last: number }>>();
const FINISHED_STATS_KEPT = 200;

/**
 * `?offset=&limit=` paging by position, with the log's line count. Both are read up to the last
 * line id counted, so lines a running task appends meanwhile shift nothing. A window nearer the
 * end is read backwards from there: a jump to the end of a million-line log skips no rows. The
 * count of a `final` log (a finished task's) is kept: a million lines take ~50 ms to count.
 * @example const { rows, total } = await readOutputWindow(db, 12, 999_000, 1000, true);
 */
export async function readOutputWindow(db: Db, taskId: number, offset: number, limit: number, final: boolean): Promise<OutputWindow> {
  const { total, last } = await outputStats(db, taskId, final);
  const end = Math.min(offset + limit, total);
  if (end <= offset) return { rows: [], total };
  const upToLast = db.selectFrom('task_output').select(['task_id', 'time', 'output'])
    .where('task_id', '=', taskId).where('id', '<=', last);
  const afterEnd = total - end;
  if (offset <= afterEnd) return { rows: await upToLast.orderBy('id').offset(offset).limit(end - offset).execute(), total };
  const rows = await upToLast.orderBy('id', 'desc').offset(afterEnd).limit(end - offset).execute();
  return { rows: rows.reverse(), total };
}

/** A log's line count and last line id; a `final` (finished) log's are kept. */
export async function outputStats(db: Db, taskId: number, final: boolean): Promise<{ total: number; last: number }> {
  let kept = finishedLogStats.get(db);
  const known = kept?.get(taskId);
  if (known) return known;
  const row = await db.selectFrom('task_output').where('task_id', '=', taskId)
    .select((e) => [e.fn.countAll<number | string>().as('n'), e.fn.max('id').as('last')]).executeTakeFirstOrThrow();
  const stats = { total: Number(row.n), last: Number(row.last ?? 0) };
  if (final) {
    if (!kept) finishedLogStats.set(db, (kept = new Map()));
    if (kept.size >= FINISHED_STATS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(taskId, stats);
  }
  return stats;
}

/** How many tasks of the `templates` the project has (the total behind a paged list). */
export async function countProjectTasks(db: Db, projectId: number, templates: TemplateScope = null): Promise<number> {
  let query = db.selectFrom('task').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId);
  if (templates) query = query.where('template_id', 'in', scopeIds(templates));
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
