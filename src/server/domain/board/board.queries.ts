import type { Db } from '../../db/database.ts';
import { isActive } from '../tasks/task-status.ts';

/** One tile per template, or per view (its templates' tasks together). */
export type BoardGrouping = 'template' | 'view';

/** What a board shows: whose projects, grouped how, optionally only one view's templates. */
export interface BoardScope {
  projectIds: readonly number[];
  by: BoardGrouping;
  /** with `by: 'template'`: only the templates of this view */
  viewId: number | null;
}

/** The last task of a tile, as the board shows it. */
export interface BoardTask {
  id: number;
  status: string;
  /** who started it: a user's name, else '' (a schedule, a webhook, the server) */
  user_name: string;
  created: string;
  start: string | null;
  end: string | null;
}

export interface BoardTile {
  /** `template` or `view`, with `id` the template's or view's id */
  kind: BoardGrouping;
  id: number;
  name: string;
  project_id: number;
  project_name: string;
  task: BoardTask | null;
  /** how long the last successful run took (ms): the running task's progress estimate */
  estimate_ms: number | null;
  /** failed tasks since the last successful one */
  fail_streak: number;
}

export interface BoardData {
  by: BoardGrouping;
  view_id: number | null;
  projects: Array<{ id: number; name: string }>;
  tiles: BoardTile[];
}

/** No more tiles than this are drawn (the page fits 200 on a 1080p screen). */
export const MAX_TILES = 500;

interface Group { kind: BoardGrouping; id: number; name: string; projectId: number }

/**
 * The board of `scope`, read with a fixed number of queries however many tiles there are: the
 * projects, the groups (templates or views), the last task id and last success id per group
 * (both from the index on task(template_id, ...)), the failure streaks, then those tasks.
 * Tiles come failures first (longest streak first), then by project and name.
 */
export async function loadBoard(db: Db, scope: BoardScope): Promise<BoardData> {
  const empty: BoardData = { by: scope.by, view_id: scope.viewId, projects: [], tiles: [] };
  if (!scope.projectIds.length) return empty;
  const projects = await db.selectFrom('project').select(['id', 'name']).where('id', 'in', [...scope.projectIds]).orderBy('name').orderBy('id').execute();
  if (!projects.length) return empty;
  const projectIds = projects.map((p) => p.id);
  const groups = await loadGroups(db, scope, projectIds);
  if (!groups.length) return { ...empty, projects };

  // every query below filters by the board's projects (and view), never by a list of tile ids,
  // so its parameters stay few however many tiles there are
  const key = scope.by === 'view' ? 'template.view_id' as const : 'task.template_id' as const;
  const tasksOfBoard = () => {
    let query = db.selectFrom('task').innerJoin('template', 'template.id', 'task.template_id').where('template.project_id', 'in', projectIds);
    if (scope.by === 'view') query = query.where('template.view_id', 'is not', null);
    else if (scope.viewId !== null) query = query.where('template.view_id', '=', scope.viewId);
    return query;
  };
  const lastIds = () => tasksOfBoard().select([`${key} as key`, (eb) => eb.fn.max('task.id').as('task_id')]).groupBy(key);
  const lastSuccessIds = () => lastIds().where('task.status', '=', 'success');
  const [latest, succeeded, streaks] = await Promise.all([
    lastIds().execute(),
    lastSuccessIds().execute(),
    // failures after the group's last success (all of them when it never succeeded)
    tasksOfBoard().leftJoin(lastSuccessIds().as('ok'), 'ok.key', key)
      .select([`${key} as key`, (eb) => eb.fn.countAll().as('n')])
      .where('task.status', '=', 'error')
      .where((eb) => eb.or([eb('ok.task_id', 'is', null), eb('task.id', '>', eb.ref('ok.task_id'))]))
      .groupBy(key).execute(),
  ]);
  const lastSuccess = new Map(succeeded.map((r) => [Number(r.key), Number(r.task_id)]));
  const taskIds = [...new Set([...latest.map((r) => Number(r.task_id)), ...lastSuccess.values()])];
  const tasks = taskIds.length
    ? await db.selectFrom('task').leftJoin('user', 'user.id', 'task.user_id')
      .select(['task.id', 'task.status', 'task.created', 'task.start', 'task.end', 'user.name as user_name', 'user.username'])
      .where('task.id', 'in', taskIds).execute()
    : [];
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const latestByGroup = new Map(latest.map((r) => [Number(r.key), Number(r.task_id)]));
  const streakByGroup = new Map(streaks.map((r) => [Number(r.key), Number(r.n)]));
  const projectNames = new Map(projects.map((p) => [p.id, p.name]));

  const tiles = groups.map((g): BoardTile => {
    const last = taskById.get(latestByGroup.get(g.id) ?? 0);
    const success = taskById.get(lastSuccess.get(g.id) ?? 0);
    return {
      kind: g.kind, id: g.id, name: g.name, project_id: g.projectId, project_name: projectNames.get(g.projectId) ?? '',
      task: last ? { id: last.id, status: last.status, user_name: last.user_name || last.username || '', created: last.created, start: last.start, end: last.end } : null,
      estimate_ms: success ? durationMs(success.start, success.end) : null,
      fail_streak: streakByGroup.get(g.id) ?? 0,
    };
  });
  tiles.sort(byFailuresFirst);
  return { by: scope.by, view_id: scope.viewId, projects, tiles: tiles.slice(0, MAX_TILES) };
}

async function loadGroups(db: Db, scope: BoardScope, projectIds: number[]): Promise<Group[]> {
  if (scope.by === 'view') {
    const views = await db.selectFrom('view').select(['id', 'title', 'project_id']).where('project_id', 'in', projectIds).execute();
    return views.map((v) => ({ kind: 'view', id: v.id, name: v.title, projectId: v.project_id }));
  }
  let query = db.selectFrom('template').select(['id', 'name', 'project_id']).where('project_id', 'in', projectIds);
  if (scope.viewId !== null) query = query.where('view_id', '=', scope.viewId);
  const templates = await query.execute();
  return templates.map((t) => ({ kind: 'template', id: t.id, name: t.name, projectId: t.project_id }));
}

function durationMs(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** Longest failure streak first; then running ones; then by project and name. */
export function byFailuresFirst(a: BoardTile, b: BoardTile): number {
  return (b.fail_streak - a.fail_streak)
    || (Number(Boolean(b.task && isActive(b.task.status))) - Number(Boolean(a.task && isActive(a.task.status))))
    || a.project_name.localeCompare(b.project_name, 'en', { numeric: true }) || a.name.localeCompare(b.name, 'en', { numeric: true }) || a.id - b.id;
}
