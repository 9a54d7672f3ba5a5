import { z } from 'zod';
import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { TASK_STATUSES } from './task-status.ts';
import { listTasksWithTpl } from './task.repository.ts';
import { scopeIds, type TemplateScope } from '../templates/template-visibility.ts';
import type { TaskWithTpl } from './task.ts';

const id = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const instant = z.string().max(40).refine((text) => !Number.isNaN(Date.parse(text)), 'must be a date-time such as 2026-11-01T00:00:00Z')
  .transform((text) => new Date(text).toISOString());

/**
 * `GET …/tasks` with a cursor or a filter (our addition): pages that cost the same on the last
 * page as on the first, whatever the number of tasks. `before_id`: the page older than that task
 * (`before_id=0`: the newest page); `after_id`: the page newer than it (`after_id=0`: the oldest page).
 */
export const taskPageQuerySchema = z.object({
  before_id: id.optional(),
  after_id: id.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  status: z.string().max(200).optional()
    .transform((text) => (text ? text.split(',').map((s) => s.trim()).filter(Boolean) : undefined))
    .refine((list) => !list || list.every((s) => (TASK_STATUSES as readonly string[]).includes(s)), `status: one or more of ${TASK_STATUSES.join(', ')}`),
  user_id: id.optional(),
  template_id: id.optional(),
  from: instant.optional(),
  to: instant.optional(),
});
export type TaskPageQuery = z.infer<typeof taskPageQuerySchema>;

/** Every query word of `GET …/tasks`: the offset pages and the cursor pages. */
export const taskListQuerySchema = taskPageQuerySchema.extend({
  offset: z.coerce.number().int().min(0).optional().meta({ description: 'rows to skip; the project total comes in X-Total-Count' }),
});

/** `GET …/tasks/last` (Semaphore develop's keyset paging): `count` newest tasks older than `before`; X-Has-Next. */
export const lastTasksQuerySchema = z.object({
  count: z.coerce.number().int().optional().meta({ description: 'how many tasks, at most and by default 200' }),
  limit: z.coerce.number().int().optional().meta({ description: 'the older name of count' }),
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: 'only tasks older than this task id (the last id of the previous page)' }),
});

/** The query words that ask for cursor paging. */
export const TASK_PAGE_PARAMS = ['before_id', 'after_id', 'status', 'user_id', 'template_id', 'from', 'to'] as const;

export interface TaskPage {
  /** newest first */
  tasks: TaskWithTpl[];
  /** tasks older than the last one of the page exist */
  hasOlder: boolean;
  /** tasks newer than the first one of the page exist */
  hasNewer: boolean;
}

/** `templates`: only tasks of those templates (domain/templates/template-visibility.ts) */
type Scope = { projectId?: number; templateId?: number; templates?: TemplateScope };

/**
 * One page of tasks newest first, read along an index in id order (no count, no offset).
 * A date range becomes an id range first: tasks get their ids in the order they are created.
 */
export async function pageTasks(db: Db | Tx, scope: Scope, query: TaskPageQuery, defaultLimit: number): Promise<TaskPage> {
  if (query.before_id !== undefined && query.after_id !== undefined) throw badRequest('before_id and after_id: give one of them');
  const limit = query.limit ?? defaultLimit;
  const bounds = await idBounds(db, scope, query);
  if (!bounds) return { tasks: [], hasOlder: false, hasNewer: false };
  const newerFirst = query.after_id === undefined;
  const ids = await pageIds(db, scope, query, bounds, limit + 1, newerFirst);
  const more = ids.length > limit;
  const page = (newerFirst ? ids : ids.reverse()).slice(...(newerFirst ? [0, limit] : [more ? 1 : 0]));
  const tasks = page.length ? await listTasksWithTpl(db, { ids: page, limit: page.length }) : [];
  const edge = newerFirst ? query.before_id : query.after_id;
  const beyondEdge = edge !== undefined && edge > 0 && await existsBeyond(db, scope, query, bounds, edge, newerFirst);
  return newerFirst ? { tasks, hasOlder: more, hasNewer: beyondEdge } : { tasks, hasOlder: beyondEdge, hasNewer: more };
}

/** The id range a date range allows; null: no bound on that side. */
export interface IdBounds { min: number | null; max: number | null }

/** The id range the dates allow (whole table when no dates); null when no task is in range. */
async function idBounds(db: Db | Tx, scope: Scope, query: TaskPageQuery): Promise<IdBounds | null> {
  const bounds: IdBounds = { min: null, max: null };
  if (query.from !== undefined) {
    const first = await scoped(db, scope).select('task.id').where('task.created', '>=', query.from).orderBy('task.created').limit(1).executeTakeFirst();
    if (!first) return null;
    bounds.min = first.id;
  }
  if (query.to !== undefined) {
    const last = await scoped(db, scope).select('task.id').where('task.created', '<', query.to).orderBy('task.created', 'desc').limit(1).executeTakeFirst();
    if (!last) return null;
    bounds.max = last.id;
  }
  return bounds.min === null || bounds.max === null || bounds.min <= bounds.max ? bounds : null;
}

function scoped(db: Db | Tx, scope: Scope) {
  let q = db.selectFrom('task');
  if (scope.projectId !== undefined) q = q.where('task.project_id', '=', scope.projectId);
  if (scope.templateId !== undefined) q = q.where('task.template_id', '=', scope.templateId);
  if (scope.templates) q = q.where('task.template_id', 'in', scopeIds(scope.templates));
  return q;
}

function filtered(db: Db | Tx, scope: Scope, query: TaskPageQuery, bounds: IdBounds) {
  let q = scoped(db, scope).select('task.id');
  if (bounds.min !== null) q = q.where('task.id', '>=', bounds.min);
  if (bounds.max !== null) q = q.where('task.id', '<=', bounds.max);
  if (query.template_id !== undefined) q = q.where('task.template_id', '=', query.template_id);
  if (query.user_id !== undefined) q = q.where('task.user_id', '=', query.user_id);
  if (query.status?.length === 1) q = q.where('task.status', '=', query.status[0]!);
  else if (query.status) q = q.where('task.status', 'in', query.status);
  return q;
}

async function pageIds(db: Db | Tx, scope: Scope, query: TaskPageQuery, bounds: IdBounds, take: number, newerFirst: boolean): Promise<number[]> {
  const rows = await taskPageIdQuery(db, scope, query, bounds, take, newerFirst).execute();
  return rows.map((r) => r.id);
}

/** The ids of one page, as a query (the tests read its plan). */
export function taskPageIdQuery(db: Db | Tx, scope: Scope, query: TaskPageQuery, bounds: IdBounds, take: number, newerFirst: boolean) {
  let q = filtered(db, scope, query, bounds);
  if (query.before_id) q = q.where('task.id', '<', query.before_id);
  if (query.after_id) q = q.where('task.id', '>', query.after_id);
  return q.orderBy('task.id', newerFirst ? 'desc' : 'asc').limit(take);
}

/** Whether a matching task lies on the other side of the cursor (newer than before_id, older than after_id). */
async function existsBeyond(db: Db | Tx, scope: Scope, query: TaskPageQuery, bounds: IdBounds, edge: number, newerFirst: boolean): Promise<boolean> {
  const q = filtered(db, scope, query, bounds).where('task.id', newerFirst ? '>=' : '<=', edge);
  return (await q.limit(1).execute()).length > 0;
}
