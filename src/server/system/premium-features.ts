import type { RouterRoute } from 'hono/types';

/**
 * Semaphore's `premium_features` flags, each with a route that exists only when the feature is
 * served. Clients show a feature's fields when its flag is true and then call its routes, so a
 * flag is derived from the mounted routes, never set by hand: mounting the routes switches it on.
 */
const FEATURE_ROUTES = {
  project_runners: 'GET /api/project/:/runners',
  terraform_backend: 'GET /api/terraform/:',
  task_summary: 'GET /api/project/:/tasks/:/stages',
  secret_storages: 'POST /api/project/:/secret_storages',
  // Semaphore's UI offers "New storage" and its editing only with this one
  secret_storage_management: 'PUT /api/project/:/secret_storages/:',
} as const;

export type PremiumFeatures = Record<keyof typeof FEATURE_ROUTES, boolean>;

/**
 * Which premium features the mounted routes serve.
 * @example servedFeatures(api.routes) // { project_runners: false, task_summary: true, ... }
 */
export function servedFeatures(routes: readonly Pick<RouterRoute, 'method' | 'path'>[]): PremiumFeatures {
  const mounted = new Set(routes.map((r) => `${r.method} ${withoutParamNames(r.path)}`));
  const served = {} as PremiumFeatures;
  for (const [feature, route] of Object.entries(FEATURE_ROUTES)) served[feature as keyof PremiumFeatures] = mounted.has(route);
  return served;
}

/** `/api/project/:project_id/tasks/:id{[0-9]+}` → `/api/project/:/tasks/:`: names differ between modules. */
function withoutParamNames(path: string): string {
  return path.replace(/\/+$/, '').split('/').map((segment) => (segment.startsWith(':') ? ':' : segment)).join('/');
}
