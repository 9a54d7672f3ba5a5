import { describe, expect, it } from 'vitest';
import { createApi } from '../../../../src/server/app.ts';
import type { Deps } from '../../../../src/server/deps.ts';
import type { MatrixRow } from '../../../support/permission-matrix.ts';
import { FOUNDATION_MATRIX } from './foundation.rows.ts';
import { RESOURCES_MATRIX } from './resources.rows.ts';
import { TEMPLATES_MATRIX } from './templates.rows.ts';
import { INTEGRATIONS_MATRIX } from './integrations.rows.ts';
import { SYSTEM_MATRIX } from './system.rows.ts';

const ALL_ROWS: MatrixRow[] = [...FOUNDATION_MATRIX, ...RESOURCES_MATRIX, ...TEMPLATES_MATRIX, ...INTEGRATIONS_MATRIX, ...SYSTEM_MATRIX];

/** Routes that need no row, with the reason. */
const NOT_IN_MATRIX: Record<string, string> = {};

/** "METHOD /api/a/:b{x|y}/c" as a pattern over row labels ("METHOD /api/a/{anything}/c" or the literal x/y). */
function routePattern(method: string, path: string): RegExp {
  const segments = path.split('/').map((segment) => {
    const alternatives = /^:\w+\{(.+)\}$/.exec(segment);
    if (alternatives) return `(?:${alternatives[1]}|\\{[^}]+\\})`;
    if (segment.startsWith(':')) return '\\{[^}]+\\}';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${method} ${segments.join('/')}$`);
}

describe('permission matrix coverage', () => {
  it('has a row for every route the API mounts', () => {
    // the route table does not touch deps; nothing is served here
    const api = createApi({} as Deps);
    const routes = [...new Set(api.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];
    expect(routes.length).toBeGreaterThan(100);
    const labels = ALL_ROWS.map((row) => row.route);
    const missing = routes.filter((route) => {
      if (NOT_IN_MATRIX[route]) return false;
      const [method, path] = route.split(' ') as [string, string];
      const pattern = routePattern(method, path);
      return !labels.some((label) => pattern.test(label));
    });
    expect(missing).toEqual([]);
  });
});
