import { describeMatrix } from '../../../support/permission-matrix.ts';
import { TERRAFORM_MATRIX } from './terraform.rows.ts';

describeMatrix('terraform state, metrics and retention', TERRAFORM_MATRIX);
