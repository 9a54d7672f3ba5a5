import { describeBadInput } from '../../../support/bad-input.ts';
import { SYSTEM_WRITES } from './system.writes.ts';

describeBadInput('apps and restore', SYSTEM_WRITES);
