import { describeBadInput } from '../../../support/bad-input.ts';
import { TASK_WRITES } from './tasks.writes.ts';

describeBadInput('tasks', TASK_WRITES);
