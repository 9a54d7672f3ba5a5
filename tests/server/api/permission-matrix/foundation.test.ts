import { describeMatrix } from '../../../support/permission-matrix.ts';
import { FOUNDATION_MATRIX } from './foundation.rows.ts';

describeMatrix('sign-in, users, tokens, projects, members, events', FOUNDATION_MATRIX);
