import { describeBadInput } from '../../../support/bad-input.ts';
import { AUTH_WRITES } from './auth.writes.ts';

describeBadInput('the second factor of sign-in', AUTH_WRITES, { SEMAPHORE_TOTP_ENABLED: 'true', SEMAPHORE_TOTP_ALLOW_RECOVERY: 'true' });
