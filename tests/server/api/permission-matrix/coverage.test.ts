import { describe, expect, it } from 'vitest';
import { mountedRoutes, routesWithoutLabel } from '../../../support/route-table.ts';
import { ALL_MATRIX_ROWS } from './all.rows.ts';

describe('permission matrix coverage', () => {
  it('has a row for every route the API mounts', () => {
    const routes = mountedRoutes();
    expect(routes.length).toBeGreaterThan(100);
    expect(routesWithoutLabel(routes, ALL_MATRIX_ROWS.map((row) => row.route))).toEqual([]);
  });
});
