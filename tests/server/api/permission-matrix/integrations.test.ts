import { describeMatrix } from '../../../support/permission-matrix.ts';
import { INTEGRATIONS_MATRIX } from './integrations.rows.ts';

describeMatrix('integrations and webhooks', INTEGRATIONS_MATRIX);
