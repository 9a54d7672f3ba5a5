import { describeMatrix } from '../../../support/permission-matrix.ts';
import { AUTH_MATRIX, AUTH_MATRIX_ENV } from './auth.rows.ts';

describeMatrix('two-factor, sessions, OIDC', AUTH_MATRIX, AUTH_MATRIX_ENV);
