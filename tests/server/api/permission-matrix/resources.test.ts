import { describeMatrix } from '../../../support/permission-matrix.ts';
import { RESOURCES_MATRIX } from './resources.rows.ts';

describeMatrix('keys, repositories, inventories, variable groups', RESOURCES_MATRIX);
