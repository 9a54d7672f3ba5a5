import type { WriteRoute } from '../../../support/bad-input.ts';

/** Issue 15's writes that read a body: the second factor of sign-in and its enrolment (an admin's, for another user). */
export const AUTH_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/auth/verify', path: () => '/api/auth/verify',
    valid: () => ({ passcode: '123456' }), fields: { passcode: 'string' }, maxLength: { passcode: 64 },
  },
  {
    route: 'POST /api/auth/recovery', path: () => '/api/auth/recovery',
    valid: () => ({ recovery_code: 'AAAAAAAAAAAAAAAA' }), fields: { recovery_code: 'string' }, maxLength: { recovery_code: 64 },
  },
  {
    route: 'POST /api/users/{id}/2fas/totp', path: ({ w }) => `/api/users/${w.users.spare.id}/2fas/totp`,
    valid: () => ({ current_password: 'not asked of an admin' }), fields: { current_password: 'string', passcode: 'string' },
    maxLength: { current_password: 1024, passcode: 64 },
  },
];
