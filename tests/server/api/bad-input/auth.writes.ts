import type { WriteRoute } from '../../../support/bad-input.ts';

/** Issue 15's writes that read a body: the second factor of sign-in. */
export const AUTH_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/auth/verify', path: () => '/api/auth/verify',
    valid: () => ({ passcode: '123456' }), fields: { passcode: 'string' }, maxLength: { passcode: 64 },
  },
  {
    route: 'POST /api/auth/recovery', path: () => '/api/auth/recovery',
    valid: () => ({ recovery_code: 'AAAAAAAAAAAAAAAA' }), fields: { recovery_code: 'string' }, maxLength: { recovery_code: 64 },
  },
];
