import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';
import { runnerTags } from '../domain/runners/runner.service.ts';

/** A runner tag and how many runners carry it (Semaphore's `RunnerTag`). */
export interface RunnerTag {
  tag: string;
  number_of_runners: number;
}

/** `GET /api/project/:project_id/runner_tags`: the project's and the global runners' tags. */
export const projectRunnerTagsRoutes = new Hono<AppEnv>();

projectRunnerTagsRoutes.get('/', async (c) => c.json(await runnerTags(c.var.deps.db, c.var.project.id) satisfies RunnerTag[]));

/** `GET /api/runner_tags` (system admins): the global runners' tags. */
export const globalRunnerTagsRoutes = new Hono<AppEnv>();

globalRunnerTagsRoutes.get('/', async (c) => {
  if (!c.var.user.admin) throw forbidden();
  return c.json(await runnerTags(c.var.deps.db, null) satisfies RunnerTag[]);
});
