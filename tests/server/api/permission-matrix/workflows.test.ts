import { describeMatrix } from '../../../support/permission-matrix.ts';
import { WORKFLOWS_MATRIX } from './workflows.rows.ts';

describeMatrix('workflows', WORKFLOWS_MATRIX);
