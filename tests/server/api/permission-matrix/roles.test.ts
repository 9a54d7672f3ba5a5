import { describeMatrix } from '../../../support/permission-matrix.ts';
import { ROLES_MATRIX } from './roles.rows.ts';

describeMatrix('custom project roles', ROLES_MATRIX);
