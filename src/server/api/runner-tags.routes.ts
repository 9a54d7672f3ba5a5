import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';

/** A runner tag and how many runners carry it (Semaphore's `RunnerTag`). */
export interface RunnerTag {
  tag: string;
  number_of_runners: number;
}

/**
 * Tasks run in the server process: there are no runners, so no tags. Semaphore's template,
 * inventory and key forms load these lists before they open, so the routes answer an empty list
 * rather than 404; the runners feature fills them.
 */
function listRunnerTags(): RunnerTag[] {
  return [];
}

/** `GET /api/project/:project_id/runner_tags`: the project's and the global runners' tags. */
export const projectRunnerTagsRoutes = new Hono<AppEnv>();

projectRunnerTagsRoutes.get('/', (c) => c.json(listRunnerTags()));

/** `GET /api/runner_tags` (system admins): the global runners' tags. */
export const globalRunnerTagsRoutes = new Hono<AppEnv>();

globalRunnerTagsRoutes.get('/', (c) => {
  if (!c.var.user.admin) throw forbidden();
  return c.json(listRunnerTags());
});
