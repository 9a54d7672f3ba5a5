import { createHash } from 'node:crypto';
import type { Db } from '../../../../src/server/db/database.ts';
import { now } from '../../../../src/server/lib/time.ts';
import {
  adminOnly, Permission, projectRead, projectWrite, publicRoute, signedIn, type MatrixRow,
} from '../../../support/permission-matrix.ts';
import { insertProject } from '../../../support/fixtures.ts';
import type { World } from '../../../support/world.ts';
import { createBoardToken } from '../../../../src/server/domain/board/board-token.repository.ts';

let unique = 0;

/** The board token made for each world (by its project id), for the row that opens the board with it. */
const boardTokens = new Map<number, string>();

/** A board token of every world user over the world's project, by user key. */
const boardTokenPerUser: MatrixRow['setup'] = async (db, w) => {
  const ids: Record<string, number> = {};
  for (const user of Object.values(w.users)) {
    ids[user.key] = (await createBoardToken(db, user.id, { name: '', project_ids: [w.projectId], by: 'template', view_id: null })).id;
  }
  return ids;
};
const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
/** anonymous has no self; its requests name the spare user instead */
const selfId = (w: { users: { spare: { id: number } } }, self?: { id: number }) => (self ?? w.users.spare).id;

/** The token of the matrix's invitation of a user to a project (known, so a request can name it). */
const inviteToken = (projectId: number, userId: number) => `matrix-invite-${projectId}-${userId}`;

/** A pending invitation from the world's admin (an invitation is accepted only while its inviter may still invite). */
async function insertInvite(db: Db, w: World, projectId: number, invitee: { userId?: number; email?: string }): Promise<number> {
  const token = inviteToken(projectId, invitee.userId ?? 0);
  const row = await db.insertInto('project_invite').values({
    project_id: projectId, user_id: invitee.userId ?? null, email: invitee.email ?? null, role: 'guest', status: 'pending',
    token_hash: createHash('sha256').update(token).digest('hex'), inviter_user_id: w.users.admin.id, created: now(), expires_at: null, accepted_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A pending invitation of an email address to the world's project. */
const worldInvite: MatrixRow['setup'] = async (db, w) => ({ invite: await insertInvite(db, w, w.projectId, { email: `invitee-${w.projectId}@example.test` }) });

/** Another project, with a pending invitation for every user of the world (none is a member of it). */
const everyoneInvited = async (db: Db, w: World) => {
  const project = await insertProject(db, `Invited ${w.projectId}`);
  for (const user of Object.values(w.users)) await insertInvite(db, w, project.id, { userId: user.id });
  return { project: project.id };
};

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
  { route: 'GET /api/board', path: (w) => `/api/board?project_ids=${w.projectId}`, expect: signedIn(200) },
  {
    // a board token opens its board for anyone holding it, signed in or not
    route: 'GET /api/board?token={board token}',
    setup: async (db, w) => { boardTokens.set(w.projectId, (await createBoardToken(db, w.users.owner.id, { name: '', project_ids: [w.projectId], by: 'template', view_id: null })).token!); return {}; },
    path: (w) => `/api/board?token=${boardTokens.get(w.projectId)}`, expect: publicRoute(200),
  },
  { route: 'GET /api/board/tokens', path: () => '/api/board/tokens', expect: signedIn(200) },
  {
    route: 'POST /api/board/tokens', path: () => '/api/board/tokens', body: (w) => ({ project_ids: [w.projectId] }),
    expect: { admin: 201, owner: 201, manager: 201, task_runner: 403, guest: 403, non_member: 400, anonymous: 401, bearer: 201 },
  },
  {
    route: 'DELETE /api/board/tokens/{own board token}', setup: boardTokenPerUser,
    path: (_w, self, ids) => `/api/board/tokens/${ids[self?.key ?? 'spare']}`, expect: signedIn(204),
  },
  {
    route: "DELETE /api/board/tokens/{someone else's board token}", setup: boardTokenPerUser,
    path: (_w, _self, ids) => `/api/board/tokens/${ids.spare}`, expect: { ...signedIn(404), admin: 204 },
  },
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
  // per-user options: each signed-in user reads and writes only their own
  { route: 'GET /api/user/options', path: () => '/api/user/options', expect: signedIn(200) },
  { route: 'POST /api/user/options', path: () => '/api/user/options', body: () => ({ key: 'ui.theme', value: 'dark' }), expect: signedIn(200) },
  // invitations: the project's people managers send and manage them; the invitee answers with the token
  { route: 'GET /api/project/{id}/invites', setup: worldInvite, path: (w) => `${p(w)}/invites`, expect: projectWrite(Permission.ManageUsers, 200) },
  {
    route: 'POST /api/project/{id}/invites', path: (w) => `${p(w)}/invites`,
    body: (w, self) => ({ email: `new-${w.projectId}-${self?.key ?? 'anonymous'}@example.test`, role: 'guest' }), expect: projectWrite(Permission.ManageUsers, 201),
  },
  { route: 'GET /api/project/{id}/invites/{invite}', setup: worldInvite, path: (w, _, ids) => `${p(w)}/invites/${ids.invite}`, expect: projectWrite(Permission.ManageUsers, 200) },
  {
    route: 'PUT /api/project/{id}/invites/{invite}', setup: worldInvite, path: (w, _, ids) => `${p(w)}/invites/${ids.invite}`,
    body: () => ({ status: 'declined' }), expect: projectWrite(Permission.ManageUsers, 204),
  },
  { route: 'DELETE /api/project/{id}/invites/{invite}', setup: worldInvite, path: (w, _, ids) => `${p(w)}/invites/${ids.invite}`, expect: projectWrite(Permission.ManageUsers, 204) },
  {
    route: 'POST /api/invites/accept', setup: everyoneInvited, path: () => '/api/invites/accept',
    body: (w, self, ids) => ({ token: inviteToken(ids.project!, selfId(w, self)) }), expect: signedIn(204),
  },
  {
    route: 'POST /api/invites/decline', setup: everyoneInvited, path: () => '/api/invites/decline',
    body: (w, self, ids) => ({ token: inviteToken(ids.project!, selfId(w, self)) }), expect: signedIn(204),
  },
  // an invitation names its invitee: nobody else can answer it, not even an admin
  {
    route: "POST /api/invites/accept {someone else's}", setup: everyoneInvited, path: () => '/api/invites/accept',
    body: (w, _, ids) => ({ token: inviteToken(ids.project!, w.users.spare.id) }), expect: { ...signedIn(403) },
  },
];
