import { describeBadInput } from '../../../support/bad-input.ts';
import { TEMPLATE_WRITES } from './templates.writes.ts';

describeBadInput('templates, views and schedules', TEMPLATE_WRITES);
