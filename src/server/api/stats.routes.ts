import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { countTasksByDay } from '../domain/stats/task-stats.ts';
import { readStatsQuery } from './stats-query.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';

/** `/api/project/:project_id/stats?start=&end=&user_id=`: finished tasks (of templates the caller sees) per day and status. */
export const statsRoutes = new Hono<AppEnv>();

statsRoutes.get('/', async (c) => c.json(await countTasksByDay(c.var.deps.db, { ...readStatsQuery(c, c.var.project.id), templates: await templateScopeOf(c) })));
