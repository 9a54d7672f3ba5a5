import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { badRequest, unauthorized } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { taskOutputs } from '../domain/workflows/workflow-run.view.ts';
import { stopInputSchema, taskInputSchema, taskRowToTask } from '../domain/tasks/task.ts';
import { countProjectTasks, listTasksWithTpl, readOutputWindow } from '../domain/tasks/task.repository.ts';
import { decideTask, deleteTask, stopTask } from '../domain/tasks/task.service.ts';
import { launchTask } from '../domain/tasks/launch/launch-task.ts';
import { failedHostsRelaunch, limitToHosts } from '../domain/tasks/launch/relaunch-failed.ts';
import { streamTaskOutput } from '../domain/tasks/task-output-stream.ts';
import { isFinished } from '../domain/tasks/task-status.ts';
import { limitQuery, taskOf, templateOf } from './route-context.ts';
import { respondWithLastTasks, respondWithTaskPage, wantsTaskPage } from './task-page.ts';
import { SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX, searchTaskOutput } from '../domain/tasks/task-output-search.ts';

const LIST_LIMIT = 1000;
const OUTPUT_PAGE_MAX = 100_000;
/** A finished task's log is taken as final this long after its end (a force stop may race the last writes). */
const LOG_SETTLED_MS = 10_000;

/** `/api/project/:project_id/tasks...` and `/templates/:template_id/stop_all_tasks`. */
export const tasksRoutes = new Hono<AppEnv>();

/**
 * Newest first, up to 1000. `?offset=&limit=` (our addition, for paged screens) returns that
 * page and the project's task count in `X-Total-Count`; a cursor (`before_id`, `after_id`) or a
 * filter (`status`, `user_id`, `template_id`, `from`, `to`) returns a cursor page instead.
 */
tasksRoutes.get('/tasks', async (c) => {
  const { db } = c.var.deps;
  const projectId = c.var.project.id;
  if (wantsTaskPage(c)) return respondWithTaskPage(c, { projectId }, LIST_LIMIT);
  const offset = c.req.query('offset');
  const limit = c.req.query('limit');
  if (offset === undefined && limit === undefined) return c.json(await listTasksWithTpl(db, { projectId, limit: LIST_LIMIT }));
  const [rows, total] = await Promise.all([
    listTasksWithTpl(db, { projectId, limit: clampLimit(limit, LIST_LIMIT), offset: clampOffset(offset) }),
    countProjectTasks(db, projectId),
  ]);
  c.header('X-Total-Count', String(total));
  return c.json(rows);
});

tasksRoutes.get('/tasks/last', (c) => respondWithLastTasks(c, { projectId: c.var.project.id }));

/** Starts a task: the launch dialog, a re-run and every API client (the launch function's `api` path). */
tasksRoutes.post('/tasks', async (c) => {
  const input = await readJson(c, taskInputSchema);
  const { task } = await launchTask(c.var.deps, { path: 'api', user: c.var.user, permissions: c.var.permissions, valuesFrom: 'caller' }, { projectId: c.var.project.id, input });
  return c.json(taskRowToTask(task), 201);
});

/**
 * Relaunch on failed hosts: a new task with the finished task's values, limited to the hosts
 * its PLAY RECAP counted failed or unreachable — a re-run, so the `api` path and its rules,
 * with one rule of its own that sets the limit.
 */
tasksRoutes.post('/tasks/:task_id/relaunch_failed', async (c) => {
  const { input, hosts } = await failedHostsRelaunch(c.var.deps.db, await taskOf(c));
  const { task } = await launchTask(c.var.deps, {
    path: 'api', user: c.var.user, permissions: c.var.permissions, valuesFrom: 'caller', rules: [limitToHosts(hosts)],
  }, { projectId: c.var.project.id, input });
  return c.json(taskRowToTask(task), 201);
});

tasksRoutes.get('/tasks/:task_id', async (c) => {
  const task = await taskOf(c);
  return c.json(taskRowToTask(task));
});

tasksRoutes.get('/tasks/:task_id/output', async (c) => {
  const { db } = c.var.deps;
  const task = await taskOf(c);
  const offset = c.req.query('offset');
  const limit = c.req.query('limit');
  if (offset === undefined && limit === undefined) {
    return c.body(streamTaskOutput(db, task.id, 'json'), 200, { 'content-type': 'application/json' });
  }
  const settled = isFinished(task.status) && task.end !== null && Date.now() - Date.parse(task.end) > LOG_SETTLED_MS;
  const { rows, total } = await readOutputWindow(db, task.id, clampOffset(offset), clampLimit(limit, OUTPUT_PAGE_MAX), settled);
  c.header('X-Total-Count', String(total));
  return c.json(rows);
});

/** The outputs a workflow task produced (`SEMAPHORE_OUTPUTS_FILE`), and what was not captured. */
tasksRoutes.get('/tasks/:task_id/outputs', async (c) => c.json(await taskOutputs(c.var.deps.db, (await taskOf(c)).id)));

tasksRoutes.get('/tasks/:task_id/raw_output', async (c) => {
  const { db } = c.var.deps;
  const task = await taskOf(c);
  return c.body(streamTaskOutput(db, task.id, 'raw'), 200, { 'content-type': 'text/plain; charset=utf-8' });
});

/**
 * Lines of the whole log containing `?q=` (case-insensitive text), in order, with their line
 * numbers: `{matches: [{line, time, output}], more}`; `?limit=` 1..1000, default 100.
 */
tasksRoutes.get('/tasks/:task_id/output/search', async (c) => {
  const task = await taskOf(c);
  const q = c.req.query('q') ?? '';
  if (q.trim() === '') throw badRequest('q: required');
  if (q.length > SEARCH_QUERY_MAX) throw badRequest(`q: at most ${SEARCH_QUERY_MAX} characters`);
  return c.json(await searchTaskOutput(c.var.deps.db, task.id, q, limitQuery(c, SEARCH_LIMIT_MAX, 100)));
});

/** The log as a text file to save (`task-<id>.log`, no ANSI codes), streamed; secrets were masked when written. */
tasksRoutes.get('/tasks/:task_id/output/download', async (c) => {
  const task = await taskOf(c);
  return c.body(streamTaskOutput(c.var.deps.db, task.id, 'raw'), 200, {
    'content-type': 'text/plain; charset=utf-8',
    'content-disposition': `attachment; filename="task-${task.id}.log"`,
  });
});

tasksRoutes.post('/tasks/:task_id/stop', async (c) => {
  const task = await taskOf(c);
  const { force } = await readJson(c, stopInputSchema);
  await stopTask(c.var.deps, task, Boolean(force));
  return c.body(null, 204);
});

tasksRoutes.post('/tasks/:task_id/confirm', async (c) => {
  const task = await taskOf(c);
  await decideTask(c.var.deps, task, 'confirmed');
  return c.body(null, 204);
});

tasksRoutes.post('/tasks/:task_id/reject', async (c) => {
  const task = await taskOf(c);
  await decideTask(c.var.deps, task, 'rejected');
  return c.body(null, 204);
});

tasksRoutes.delete('/tasks/:task_id', async (c) => {
  const task = await taskOf(c);
  if (!c.var.user.admin) throw unauthorized();
  await deleteTask(c.var.deps, task);
  return c.body(null, 204);
});

tasksRoutes.post('/templates/:template_id/stop_all_tasks', async (c) => {
  const { db } = c.var.deps;
  const template = await templateOf(c);
  const { force } = await readJson(c, stopInputSchema);
  const tasks = await db.selectFrom('task').selectAll().where('template_id', '=', template.id).orderBy('id').execute();
  for (const task of tasks) if (!isFinished(task.status)) await stopTask(c.var.deps, task, Boolean(force)).catch(() => undefined);
  return c.body(null, 204);
});

/** A `?limit=` between 1 and `max`; missing or junk means `max`. */
function clampLimit(raw: string | undefined, max: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : max;
}

/** Rows to skip; a count no table can reach (`99999999999999999999`) is the caller's mistake. */
function clampOffset(raw: string | undefined): number {
  const n = Number(raw);
  if (n > Number.MAX_SAFE_INTEGER) throw badRequest(`offset: must be at most ${Number.MAX_SAFE_INTEGER}`);
  return Number.isInteger(n) && n > 0 ? n : 0;
}
