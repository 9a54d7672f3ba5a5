import { describeMatrix } from '../../../support/permission-matrix.ts';
import { TEMPLATES_MATRIX } from './templates.rows.ts';

describeMatrix('templates, views, schedules', TEMPLATES_MATRIX);
