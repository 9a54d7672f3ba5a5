import { describeMatrix } from '../../../support/permission-matrix.ts';
import { TASKS_MATRIX } from './tasks.rows.ts';

describeMatrix('tasks', TASKS_MATRIX);
