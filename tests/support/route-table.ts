import { createApi } from '../../src/server/app.ts';
import type { Deps } from '../../src/server/deps.ts';

/**
 * Every route the API mounts, as "METHOD /api/path/:param" (middleware left out).
 * @example mountedRoutes().filter((r) => r.startsWith('POST '))
 */
export function mountedRoutes(): string[] {
  // building the route table does not touch deps; nothing is served
  const api = createApi({} as Deps);
  return [...new Set(api.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];
}

/**
 * A mounted route ("METHOD /api/a/:b{x|y}/c") as a pattern over test labels: a parameter matches
 * any `{placeholder}`, an alternatives parameter also matches its literal values.
 * @example routePattern('GET /api/project/:project_id').test('GET /api/project/{id}') // true
 */
export function routePattern(route: string): RegExp {
  const [method, path] = route.split(' ') as [string, string];
  const segments = path.split('/').map((segment) => {
    const alternatives = /^:\w+\{(.+)\}$/.exec(segment);
    if (alternatives) return `(?:${alternatives[1]}|\\{[^}]+\\})`;
    if (segment.startsWith(':')) return '\\{[^}]+\\}';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${method} ${segments.join('/')}$`);
}

/** The mounted routes no label names. */
export function routesWithoutLabel(routes: string[], labels: string[]): string[] {
  return routes.filter((route) => !labels.some((label) => routePattern(route).test(label)));
}
