import type { Db } from '../../db/database.ts';
import { isActive } from '../tasks/task-status.ts';
import { scopeIds, type TemplateScope } from '../templates/template-visibility.ts';

/** One tile per template, or per view (its templates' tasks together). */
export type BoardGrouping = 'template' | 'view';

/** What a board shows: whose projects, grouped how, optionally only one view's templates. */
export interface BoardScope {
  projectIds: readonly number[];
  by: BoardGrouping;
  /** with `by: 'template'`: only the templates of this view */
  viewId: number | null;
  /** the templates the viewer may see per project (domain/templates/template-visibility.ts); absent: all */
  templates?: ReadonlyMap<number, TemplateScope>;
}

/** The last task of a tile, as the board shows it. */
export interface BoardTask {
  id: number;
  status: string;
  /** who started it: a user's name, else '' (then one of the ids below says what did) */
  user_name: string;
  integration_id: number | null;
  schedule_id: number | null;
  build_task_id: number | null;
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
  /** tasks of the tile waiting in the queue */
  queued: number;
}

export interface BoardData {
  by: BoardGrouping;
  view_id: number | null;
  projects: Array<{ id: number; name: string }>;
  tiles: BoardTile[];
}

/** No more tiles than this are drawn (the page fits 200 on a 1080p screen). */
export const MAX_TILES = 200;

/** A view's tile before its tasks are read. */
interface ViewCandidate { id: number; name: string; projectId: number; lastTaskId: number | null; lastSuccessId: number | null; failStreak: number }

/**
 * The board of `scope`. Template tiles come from `template_board_state` (kept by triggers as
 * tasks change): each project's first tiles straight from its index, so the cost grows with
 * neither the tasks nor (beyond the tiles drawn) the templates; then only the drawn tiles' rows
 * and last tasks are read. View tiles (a project has few views) sum the states of each view's
 * templates, and every view's last task is read: whether it runs orders the tiles.
 * Tiles come failures first (longest streak first), then running ones, then by project and name.
 */
export async function loadBoard(db: Db, scope: BoardScope): Promise<BoardData> {
  const empty: BoardData = { by: scope.by, view_id: scope.viewId, projects: [], tiles: [] };
  if (!scope.projectIds.length) return empty;
  const projects = await db.selectFrom('project').select(['id', 'name']).where('id', 'in', [...scope.projectIds]).orderBy('name').orderBy('id').execute();
  if (!projects.length) return empty;
  const projectNames = new Map(projects.map((p) => [p.id, p.name]));
  const seen = seenTemplates(scope.templates);
  const tiles = scope.by === 'view'
    ? await viewTiles(db, await viewCandidates(db, projects.map((p) => p.id), seen), projectNames)
    : await templateTiles(db, await firstTemplates(db, projects, scope.viewId, projectNames, seen), projectNames);
  const drawn = tiles.sort(byFailuresFirst).slice(0, MAX_TILES);
  return { by: scope.by, view_id: scope.viewId, projects, tiles: await withQueuedCounts(db, scope.by, drawn) };
}

/** In projects where the viewer's scope is narrowed (`projects`), only templates in `visible` show; null: every template. */
type SeenTemplates = { projects: number[]; visible: number[] } | null;

function seenTemplates(scopes: ReadonlyMap<number, TemplateScope> | undefined): SeenTemplates {
  const narrowed = [...(scopes ?? [])].filter((entry): entry is [number, readonly number[]] => entry[1] !== null);
  if (!narrowed.length) return null;
  return { projects: narrowed.map(([id]) => id), visible: scopeIds(narrowed.flatMap(([, ids]) => ids)) };
}

/** The drawn tiles with the number of their tasks still waiting in the queue (one grouped read). */
async function withQueuedCounts(db: Db, by: BoardGrouping, tiles: BoardTile[]): Promise<BoardTile[]> {
  if (!tiles.length) return tiles;
  const ids = tiles.map((t) => t.id);
  const waiting = db.selectFrom('task').innerJoin('template', 'template.id', 'task.template_id').where('task.status', '=', 'waiting');
  const rows = by === 'view'
    ? await waiting.where('template.view_id', 'in', ids).select(['template.view_id as id', (eb) => eb.fn.countAll().as('n')]).groupBy('template.view_id').execute()
    : await waiting.where('task.template_id', 'in', ids).select(['task.template_id as id', (eb) => eb.fn.countAll().as('n')]).groupBy('task.template_id').execute();
  const queued = new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
  return tiles.map((tile) => ({ ...tile, queued: queued.get(tile.id) ?? 0 }));
}

/** The ids of the board's first MAX_TILES templates, from their ranks in every project. */
async function firstTemplates(db: Db, projects: Array<{ id: number }>, viewId: number | null, projectNames: Map<number, string>, seen: SeenTemplates): Promise<number[]> {
  const projectIds = projects.map((p) => p.id);
  const ranks = projectIds.length > PROJECTS_READ_APART
    ? await ranksOf(db, projectIds, viewId, seen).execute()
    : (await Promise.all(projectIds.map((id) => firstRanksOf(db, id, viewId, seen)))).flat();
  return ranks
    .map((s): TileRank => ({ fail_streak: s.fail_streak, running: s.running === 1, project_name: projectNames.get(s.project_id) ?? '', name: s.name, id: s.template_id }))
    .sort(byRank)
    .slice(0, MAX_TILES)
    .map((rank) => rank.id);
}

/**
 * Boards of more projects than this read every rank of their templates in one statement: one
 * statement per project (300 projects: 19 ms on SQLite, 65 ms on PostgreSQL) costs more than
 * reading the index's columns of all their templates.
 */
const PROJECTS_READ_APART = 10;

/** The ranks (the state index's own columns) of the templates of `projectIds` the viewer sees, of one view or all. */
function ranksOf(db: Db, projectIds: number[], viewId: number | null, seen: SeenTemplates) {
  const all = db.selectFrom('template_board_state').select(['project_id', 'fail_streak', 'running', 'name', 'template_id']);
  let ofProjects = projectIds.length === 1 ? all.where('project_id', '=', projectIds[0]!) : all.where('project_id', 'in', projectIds);
  if (seen) ofProjects = ofProjects.where((eb) => eb.or([eb('project_id', 'not in', seen.projects), eb('template_id', 'in', seen.visible)]));
  return viewId === null ? ofProjects : ofProjects.where('view_id', '=', viewId);
}

/**
 * The ranks of the project's first MAX_TILES templates in the index's order (failures, running,
 * name), plus of every template that ties with the last of them on failures and running: the
 * index orders names by bytes (or the database's collation), the board by locale ('deploy 9'
 * before 'Deploy 10'), so which of that tie make the cut is decided after. Templates ranked below
 * the tie cannot make it: MAX_TILES of this project alone come before them.
 */
async function firstRanksOf(db: Db, projectId: number, viewId: number | null, seen: SeenTemplates) {
  const ranks = () => ranksOf(db, [projectId], viewId, seen);
  const top = await ranks().orderBy('fail_streak', 'desc').orderBy('running', 'desc').orderBy('name').orderBy('template_id').limit(MAX_TILES).execute();
  if (top.length < MAX_TILES) return top;
  const edge = top[top.length - 1]!;
  const tiedWithEdge = (s: typeof edge) => s.fail_streak === edge.fail_streak && s.running === edge.running;
  // in the index's order: byte order is mostly locale order already, which sorts fast
  const tie = await ranks().where('fail_streak', '=', edge.fail_streak).where('running', '=', edge.running).orderBy('name').orderBy('template_id').execute();
  return [...top.filter((s) => !tiedWithEdge(s)), ...tie];
}

/** The tiles of the templates `ids`: their states with their last tasks and last successes, in one read. */
async function templateTiles(db: Db, ids: number[], projectNames: Map<number, string>): Promise<BoardTile[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('template_board_state as s')
    .leftJoin('task as last', 'last.id', 's.last_task_id')
    .leftJoin('user', 'user.id', 'last.user_id')
    .leftJoin('task as ok', 'ok.id', 's.last_success_id')
    .select(['s.template_id', 's.name', 's.project_id', 's.fail_streak', 'last.id as task_id', 'last.status', 'last.created', 'last.start', 'last.end',
      'last.integration_id', 'last.schedule_id', 'last.build_task_id', 'user.name as user_name', 'user.username', 'ok.start as ok_start', 'ok.end as ok_end'])
    .where('s.template_id', 'in', ids).execute();
  return rows.map((r): BoardTile => ({
    kind: 'template', id: r.template_id, name: r.name, project_id: r.project_id, project_name: projectNames.get(r.project_id) ?? '',
    task: r.task_id === null ? null : boardTask({ ...r, id: r.task_id, status: r.status!, created: r.created! }),
    estimate_ms: durationMs(r.ok_start, r.ok_end),
    fail_streak: r.fail_streak,
    queued: 0,
  }));
}

/**
 * One candidate per view of the projects: its templates' (those the viewer sees) last task and last success, and its
 * failures after that success. Only templates with a streak of their own can hold one: the
 * view's last success is at least as late as each template's.
 */
async function viewCandidates(db: Db, projectIds: number[], seen: SeenTemplates): Promise<ViewCandidate[]> {
  const views = await db.selectFrom('view').select(['id', 'title', 'project_id']).where('project_id', 'in', projectIds).execute();
  if (!views.length) return [];
  const statesOfViews = () => {
    const states = db.selectFrom('template_board_state as s').where('s.project_id', 'in', projectIds).where('s.view_id', 'is not', null);
    return seen ? states.where((eb) => eb.or([eb('s.project_id', 'not in', seen.projects), eb('s.template_id', 'in', seen.visible)])) : states;
  };
  const lastOfViews = () => statesOfViews()
    .select(['s.view_id', (eb) => eb.fn.max('s.last_task_id').as('last_task_id'), (eb) => eb.fn.max('s.last_success_id').as('last_success_id')])
    .groupBy('s.view_id');
  const [lasts, streaks] = await Promise.all([
    lastOfViews().execute(),
    statesOfViews()
      .innerJoin('task', (join) => join.onRef('task.template_id', '=', 's.template_id').on('task.status', '=', 'error'))
      .innerJoin(lastOfViews().as('v'), 'v.view_id', 's.view_id')
      .where('s.fail_streak', '>', 0)
      .where((eb) => eb.or([eb('v.last_success_id', 'is', null), eb('task.id', '>', eb.ref('v.last_success_id'))]))
      .select(['s.view_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy('s.view_id').execute(),
  ]);
  const lastByView = new Map(lasts.map((r) => [Number(r.view_id), r]));
  const streakByView = new Map(streaks.map((r) => [Number(r.view_id), Number(r.n)]));
  return views.map((v): ViewCandidate => {
    const last = lastByView.get(v.id);
    return {
      id: v.id, name: v.title, projectId: v.project_id,
      lastTaskId: idOrNull(last?.last_task_id), lastSuccessId: idOrNull(last?.last_success_id), failStreak: streakByView.get(v.id) ?? 0,
    };
  });
}

/** The tiles of the views, with their last tasks (and the last successes' durations) read by id. */
async function viewTiles(db: Db, candidates: ViewCandidate[], projectNames: Map<number, string>): Promise<BoardTile[]> {
  const taskIds = [...new Set(candidates.flatMap((c) => [c.lastTaskId, c.lastSuccessId]).filter((id): id is number => id !== null))];
  const tasks = taskIds.length
    ? await db.selectFrom('task').leftJoin('user', 'user.id', 'task.user_id')
      .select(['task.id', 'task.status', 'task.created', 'task.start', 'task.end', 'task.integration_id', 'task.schedule_id', 'task.build_task_id', 'user.name as user_name', 'user.username'])
      .where('task.id', 'in', taskIds).execute()
    : [];
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  return candidates.map((c): BoardTile => {
    const last = c.lastTaskId === null ? undefined : taskById.get(c.lastTaskId);
    const success = c.lastSuccessId === null ? undefined : taskById.get(c.lastSuccessId);
    return {
      kind: 'view', id: c.id, name: c.name, project_id: c.projectId, project_name: projectNames.get(c.projectId) ?? '',
      task: last ? boardTask(last) : null,
      estimate_ms: success ? durationMs(success.start, success.end) : null,
      fail_streak: c.failStreak,
      queued: 0,
    };
  });
}

type BoardTaskRow = Omit<BoardTask, 'user_name'> & { user_name: string | null; username: string | null };

/** A tile's task from its row (the user's name, else their login). */
function boardTask(row: BoardTaskRow): BoardTask {
  return {
    id: row.id, status: row.status, user_name: row.user_name || row.username || '', created: row.created, start: row.start, end: row.end,
    integration_id: row.integration_id, schedule_id: row.schedule_id, build_task_id: row.build_task_id,
  };
}

/** An aggregated task id as a number; null when the view has no such task. */
function idOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function durationMs(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** What tiles are ordered by. */
interface TileRank { fail_streak: number; running: boolean; project_name: string; name: string; id: number }

const names = new Intl.Collator('en', { numeric: true });

/** Longest failure streak first; then running ones; then by project and name. */
export function byFailuresFirst(a: BoardTile, b: BoardTile): number {
  return byRank(rankOf(a), rankOf(b));
}

function rankOf(tile: BoardTile): TileRank {
  return { ...tile, running: Boolean(tile.task && isActive(tile.task.status)) };
}

function byRank(a: TileRank, b: TileRank): number {
  return (b.fail_streak - a.fail_streak) || (Number(b.running) - Number(a.running))
    || names.compare(a.project_name, b.project_name) || names.compare(a.name, b.name) || a.id - b.id;
}
