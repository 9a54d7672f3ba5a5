import { describeBadInput } from '../../../support/bad-input.ts';
import { LOCK_WRITES, prepareLocks } from './locks.writes.ts';

describeBadInput('named locks', LOCK_WRITES, {}, prepareLocks);
