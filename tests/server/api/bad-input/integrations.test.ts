import { describeBadInput } from '../../../support/bad-input.ts';
import { INTEGRATION_WRITES } from './integrations.writes.ts';

describeBadInput('integrations', INTEGRATION_WRITES);
