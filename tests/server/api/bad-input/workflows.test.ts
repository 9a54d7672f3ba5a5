import { describeBadInput } from '../../../support/bad-input.ts';
import { prepareWorkflows, WORKFLOW_WRITES } from './workflows.writes.ts';

describeBadInput('workflows', WORKFLOW_WRITES, {}, prepareWorkflows);
