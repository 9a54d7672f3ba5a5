import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { listAnsibleErrors, listAnsibleHosts, listTaskStages } from '../domain/tasks/task-summary.repository.ts';
import { taskOf } from './route-context.ts';

/**
 * The task summary (`/api/project/:project_id/tasks/:task_id/...`): stages, the PLAY RECAP per
 * host and the failed tasks, written while the task ran. Every project member may read them.
 */
export const taskSummaryRoutes = new Hono<AppEnv>();

taskSummaryRoutes.get('/tasks/:task_id/stages', async (c) => c.json(await listTaskStages(c.var.deps.db, (await taskOf(c)).id)));

taskSummaryRoutes.get('/tasks/:task_id/ansible/hosts', async (c) => c.json(await listAnsibleHosts(c.var.deps.db, (await taskOf(c)).id)));

taskSummaryRoutes.get('/tasks/:task_id/ansible/errors', async (c) => c.json(await listAnsibleErrors(c.var.deps.db, (await taskOf(c)).id)));
