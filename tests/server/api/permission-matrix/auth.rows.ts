import { adminOnly, publicRoute, signedIn, type MatrixRow } from '../../../support/permission-matrix.ts';
import { now } from '../../../../src/server/lib/time.ts';

/** anonymous has no self; its requests name the spare user instead */
const selfId = (w: { users: { spare: { id: number } } }, self?: { id: number }) => (self ?? w.users.spare).id;

/** Settings the rows below need: TOTP with recovery on, and one OIDC provider (unreachable on purpose). */
export const AUTH_MATRIX_ENV = {
  SEMAPHORE_TOTP_ENABLED: 'true',
  SEMAPHORE_TOTP_ALLOW_RECOVERY: 'true',
  SEMAPHORE_OIDC_PROVIDERS: JSON.stringify({ corp: { display_name: 'Corp', provider_url: 'http://127.0.0.1:9/', client_id: 'signalbox' } }),
};

/**
 * Issue 15's routes: the second factor, two-factor enrolment, sessions, OIDC. A verified cookie
 * session passes `verify`/`recovery` at once (204); a bearer token has no session to verify.
 */
export const AUTH_MATRIX: MatrixRow[] = [
  { route: 'POST /api/auth/verify', path: () => '/api/auth/verify', body: () => ({ passcode: '123456' }), expect: { ...signedIn(204), bearer: 401 } },
  { route: 'POST /api/auth/recovery', path: () => '/api/auth/recovery', body: () => ({ recovery_code: 'AAAAAAAAAAAAAAAA' }), expect: { ...signedIn(204), bearer: 401 } },
  { route: 'GET /api/auth/oidc/{provider}/login', path: () => '/api/auth/oidc/corp/login', expect: publicRoute(307) },
  { route: 'GET /api/auth/oidc/{unknown provider}/login', path: () => '/api/auth/oidc/nope/login', expect: publicRoute(404) },
  { route: 'GET /api/auth/oidc/{provider}/redirect', path: () => '/api/auth/oidc/corp/redirect?code=x&state=y', expect: publicRoute(307) },
  { route: 'GET /api/auth/oidc/{provider}/redirect/*', path: () => '/api/auth/oidc/corp/redirect/project/1?code=x&state=y', expect: publicRoute(307) },
  { route: 'GET /api/user/sessions', path: () => '/api/user/sessions', expect: signedIn(200) },
  { route: 'DELETE /api/user/sessions/{unknown session}', path: () => '/api/user/sessions/0123456789abcdef', expect: signedIn(404) },
  { route: 'POST /api/users/{self}/2fas/totp', path: (w, self) => `/api/users/${selfId(w, self)}/2fas/totp`, body: (w) => ({ current_password: w.password }), expect: signedIn(201) },
  { route: 'POST /api/users/{other}/2fas/totp', path: (w) => `/api/users/${w.users.spare.id}/2fas/totp`, expect: adminOnly(201, 401) },
  {
    route: 'POST /api/users/{other}/2fas/totp/{unknown}/confirm', path: (w) => `/api/users/${w.users.spare.id}/2fas/totp/999999/confirm`,
    body: () => ({ passcode: '123456' }), expect: adminOnly(404, 401),
  },
  {
    route: 'GET /api/users/{other}/2fas/totp/{unknown}/qr', path: (w) => `/api/users/${w.users.spare.id}/2fas/totp/999999/qr`,
    expect: adminOnly(404, 401),
  },
  {
    route: 'DELETE /api/users/{other}/2fas/totp/{totp}',
    setup: async (db, w) => ({
      totp: (await db.insertInto('user_totp').values({ user_id: w.users.spare.id, created: now(), secret: 'sealed', recovery_hash: 'hash' })
        .returning('id').executeTakeFirstOrThrow()).id,
    }),
    path: (w, _self, ids) => `/api/users/${w.users.spare.id}/2fas/totp/${ids.totp}`,
    expect: adminOnly(204, 401),
  },
  // issue 51: linked identities; LDAP is off in this world, so a link attempt answers 400
  { route: 'GET /api/users/{self}/identities', path: (w, self) => `/api/users/${selfId(w, self)}/identities`, expect: signedIn(200) },
  { route: 'GET /api/users/{other}/identities', path: (w) => `/api/users/${w.users.spare.id}/identities`, expect: adminOnly(200, 401) },
  {
    route: 'DELETE /api/users/{other}/identities/{type}/{provider}',
    setup: async (db, w) => {
      await db.insertInto('external_identity').values({ user_id: w.users.spare.id, provider: 'oidc:corp', subject: `spare-${w.users.spare.id}`, created: now() })
        .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing()).execute();
      return {};
    },
    path: (w) => `/api/users/${w.users.spare.id}/identities/oidc/corp`,
    expect: adminOnly(204, 401),
  },
  { route: 'POST /api/user/identities/ldap', path: () => '/api/user/identities/ldap', body: () => ({ username: 'x', password: 'y' }), expect: signedIn(400) },
];
