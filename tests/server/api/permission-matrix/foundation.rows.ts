import {
  adminOnly, Permission, projectRead, projectWrite, publicRoute, signedIn, type MatrixRow,
} from '../../../support/permission-matrix.ts';

let unique = 0;
const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
/** anonymous has no self; its requests name the spare user instead */
const selfId = (w: { users: { spare: { id: number } } }, self?: { id: number }) => (self ?? w.users.spare).id;

/**
 * Issue 2's routes × every caller. Each area keeps its rows in a `*.rows.ts` file of this folder
 * (shape: tests/support/permission-matrix.ts) and runs them from its `*.test.ts`; coverage.test.ts
 * checks that every route of the API has a row.
 */
export const FOUNDATION_MATRIX: MatrixRow[] = [
  { route: 'GET /api/ping', path: () => '/api/ping', expect: publicRoute(200) },
  { route: 'GET /api/openapi.json', path: () => '/api/openapi.json', expect: publicRoute(200) },
  { route: 'GET /api/auth/login', path: () => '/api/auth/login', expect: publicRoute(200) },
  { route: 'POST /api/auth/login', path: () => '/api/auth/login', body: (w) => ({ auth: w.users.guest.username, password: w.password }), expect: publicRoute(204) },
  { route: 'POST /api/auth/logout', path: () => '/api/auth/logout', expect: publicRoute(204) },
  { route: 'GET /api/info', path: () => '/api/info', expect: signedIn(200) },
  { route: 'GET /api/user', path: () => '/api/user', expect: signedIn(200) },
  { route: 'GET /api/user/tokens', path: () => '/api/user/tokens', expect: signedIn(200) },
  { route: 'POST /api/user/tokens', path: () => '/api/user/tokens', body: () => ({ name: 'ci' }), expect: signedIn(201) },
  {
    route: 'DELETE /api/user/tokens/{own token id}',
    path: (w, self) => `/api/user/tokens/${w.tokens[self?.key ?? 'owner'].slice(0, 8)}`,
    expect: signedIn(204),
  },
  { route: "DELETE /api/user/tokens/{someone else's token}", path: (w) => `/api/user/tokens/${w.tokens.spare}`, expect: signedIn(404) },
  { route: 'GET /api/users', path: () => '/api/users', expect: signedIn(200) },
  {
    route: 'POST /api/users', path: () => '/api/users',
    body: () => ({ name: 'New', username: `new-${process.pid}-${++unique}`, email: `new-${process.pid}-${unique}@example.test`, password: 'pw-123456' }),
    expect: adminOnly(201, 401),
  },
  { route: 'GET /api/users/{other}', path: (w) => `/api/users/${w.users.spare.id}`, expect: adminOnly(200, 401) },
  { route: 'GET /api/users/{self}', path: (w, self) => `/api/users/${selfId(w, self)}`, expect: signedIn(200) },
  {
    route: 'PUT /api/users/{other}', path: (w) => `/api/users/${w.users.spare.id}`,
    body: (w) => ({ name: 'Renamed', username: w.users.spare.username, email: w.users.spare.email }), expect: adminOnly(204, 401),
  },
  {
    route: 'PUT /api/users/{self}', path: (w, self) => `/api/users/${selfId(w, self)}`,
    body: (w, self) => ({ name: 'Renamed', username: (self ?? w.users.spare).username, email: (self ?? w.users.spare).email }), expect: signedIn(204),
  },
  { route: 'DELETE /api/users/{other}', path: (w) => `/api/users/${w.users.spare.id}`, expect: adminOnly(204, 401) },
  { route: 'DELETE /api/users/{self}', path: (w, self) => `/api/users/${selfId(w, self)}`, expect: signedIn(204) },
  { route: 'POST /api/users/{other}/password', path: (w) => `/api/users/${w.users.spare.id}/password`, body: () => ({ password: 'new-pw-1' }), expect: adminOnly(204, 401) },
  { route: 'POST /api/users/{self}/password', path: (w, self) => `/api/users/${selfId(w, self)}/password`, body: (w) => ({ password: 'new-pw-1', current_password: w.password }), expect: signedIn(204) },
  { route: 'GET /api/projects', path: () => '/api/projects', expect: signedIn(200) },
  { route: 'POST /api/projects', path: () => '/api/projects', body: () => ({ name: 'Another' }), expect: adminOnly(201, 401) },
  { route: 'GET /api/events', path: () => '/api/events', expect: signedIn(200) },
  { route: 'GET /api/events/last', path: () => '/api/events/last', expect: signedIn(200) },
  { route: 'GET /api/audit', path: () => '/api/audit', expect: { ...adminOnly(200, 403), anonymous: 401 } },
  { route: 'GET /api/audit/export', path: () => '/api/audit/export?format=jsonl', expect: { ...adminOnly(200, 403), anonymous: 401 } },
  { route: 'GET /api/audit/backlog', path: () => '/api/audit/backlog', expect: { ...adminOnly(200, 403), anonymous: 401 } },
  { route: 'GET /api/project/{unknown}', path: () => '/api/project/987654', expect: { ...signedIn(404) } },
  { route: 'GET /api/project/{id}', path: (w) => p(w), expect: projectRead() },
  { route: 'PUT /api/project/{id}', path: (w) => p(w), body: (w) => ({ id: w.projectId, name: 'Renamed' }), expect: projectWrite(Permission.UpdateProject, 204) },
  { route: 'DELETE /api/project/{id}', path: (w) => p(w), expect: projectWrite(Permission.UpdateProject, 204) },
  { route: 'GET /api/project/{id}/role', path: (w) => `${p(w)}/role`, expect: projectRead() },
  { route: 'GET /api/project/{id}/events', path: (w) => `${p(w)}/events`, expect: projectRead() },
  { route: 'GET /api/project/{id}/events/last', path: (w) => `${p(w)}/events/last`, expect: projectRead() },
  { route: 'GET /api/project/{id}/audit', path: (w) => `${p(w)}/audit`, expect: projectWrite(Permission.UpdateProject, 200) },
  { route: 'GET /api/project/{id}/audit/export', path: (w) => `${p(w)}/audit/export`, expect: projectWrite(Permission.UpdateProject, 200) },
  { route: 'GET /api/project/{id}/users', path: (w) => `${p(w)}/users`, expect: projectRead() },
  {
    route: 'POST /api/project/{id}/users', path: (w) => `${p(w)}/users`,
    body: (w) => ({ user_id: w.users.spare.id, role: 'guest' }), expect: projectWrite(Permission.ManageUsers, 204),
  },
  {
    route: 'PUT /api/project/{id}/users/{member}', path: (w) => `${p(w)}/users/${w.users.extra.id}`,
    body: () => ({ role: 'manager' }), expect: projectWrite(Permission.ManageUsers, 204),
  },
  { route: 'DELETE /api/project/{id}/users/{member}', path: (w) => `${p(w)}/users/${w.users.extra.id}`, expect: projectWrite(Permission.ManageUsers, 204) },
  // an owner may not demote or remove themself; the admin of the world is not a member (404)
  {
    route: 'PUT /api/project/{id}/users/{self}', path: (w, self) => `${p(w)}/users/${selfId(w, self)}`, body: () => ({ role: 'guest' }),
    expect: { ...projectWrite(Permission.ManageUsers, 204), admin: 404, owner: 400, bearer: 400 },
  },
  {
    route: 'DELETE /api/project/{id}/users/{self}', path: (w, self) => `${p(w)}/users/${selfId(w, self)}`,
    expect: { ...projectWrite(Permission.ManageUsers, 204), admin: 404, owner: 400, bearer: 400 },
  },
  { route: 'DELETE /api/project/{id}/me', path: (w) => `${p(w)}/me`, expect: { ...projectRead(204), admin: 404, owner: 400, bearer: 400 } },
];
