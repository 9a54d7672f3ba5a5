import { describeMatrix } from '../../../support/permission-matrix.ts';
import { RUNNERS_MATRIX } from './runners.rows.ts';

describeMatrix('runners', RUNNERS_MATRIX);
