import { describeMatrix } from '../../../support/permission-matrix.ts';
import { ROLES_MATRIX, SERVER_ROLES_MATRIX } from './roles.rows.ts';

describeMatrix('custom project roles', ROLES_MATRIX);
describeMatrix('server-wide roles', SERVER_ROLES_MATRIX);
