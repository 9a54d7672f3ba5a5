import { describe, expect, it } from 'vitest';
import { mountedRoutes, routesWithoutLabel } from '../../../support/route-table.ts';
import { FOUNDATION_MATRIX } from './foundation.rows.ts';
import { RESOURCES_MATRIX } from './resources.rows.ts';
import { TEMPLATES_MATRIX } from './templates.rows.ts';
import { INTEGRATIONS_MATRIX } from './integrations.rows.ts';
import { SYSTEM_MATRIX } from './system.rows.ts';
import { TASKS_MATRIX } from './tasks.rows.ts';
import { TERRAFORM_MATRIX } from './terraform.rows.ts';
import { AUTH_MATRIX } from './auth.rows.ts';
import { RUNNERS_MATRIX } from './runners.rows.ts';
import { WORKFLOWS_MATRIX } from './workflows.rows.ts';
import { ALERTS_MATRIX } from './alerts.rows.ts';

describe('permission matrix coverage', () => {
  it('has a row for every route the API mounts', () => {
    const routes = mountedRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const labels = [...FOUNDATION_MATRIX, ...RESOURCES_MATRIX, ...TEMPLATES_MATRIX, ...INTEGRATIONS_MATRIX, ...SYSTEM_MATRIX, ...TASKS_MATRIX, ...TERRAFORM_MATRIX, ...AUTH_MATRIX, ...RUNNERS_MATRIX, ...WORKFLOWS_MATRIX, ...ALERTS_MATRIX].map((row) => row.route);
    expect(routesWithoutLabel(routes, labels)).toEqual([]);
  });
});
