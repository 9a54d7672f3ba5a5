import { describeBadInput } from '../../../support/bad-input.ts';
import { FOUNDATION_WRITES } from './foundation.writes.ts';

describeBadInput('sign-in, users, projects and members', FOUNDATION_WRITES);
