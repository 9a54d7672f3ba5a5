import { describeMatrix } from '../../../support/permission-matrix.ts';
import { SYSTEM_MATRIX } from './system.rows.ts';

describeMatrix('apps, stats, backup, restore, cache', SYSTEM_MATRIX);
