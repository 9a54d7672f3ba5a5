import { describeMatrix } from '../../../support/permission-matrix.ts';
import { ALERTS_MATRIX } from './alerts.rows.ts';

describeMatrix('alert channels and event webhooks', ALERTS_MATRIX);
