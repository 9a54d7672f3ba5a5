import type { MatrixRow } from '../../../support/permission-matrix.ts';
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
import { ROLES_MATRIX, SERVER_ROLES_MATRIX } from './roles.rows.ts';

/** Every row of every area's matrix. */
export const ALL_MATRIX_ROWS: MatrixRow[] = [
  ...FOUNDATION_MATRIX, ...RESOURCES_MATRIX, ...TEMPLATES_MATRIX, ...INTEGRATIONS_MATRIX, ...SYSTEM_MATRIX, ...TASKS_MATRIX,
  ...TERRAFORM_MATRIX, ...AUTH_MATRIX, ...RUNNERS_MATRIX, ...WORKFLOWS_MATRIX, ...ALERTS_MATRIX, ...ROLES_MATRIX, ...SERVER_ROLES_MATRIX,
];
