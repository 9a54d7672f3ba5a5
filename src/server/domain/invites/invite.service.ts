import { createHash, randomBytes } from 'node:crypto';
import type { Db, Tx } from '../../db/database.ts';
import type { ProjectInviteRow, UserRow } from '../../db/schema.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { hasPermission, Permission } from '../../access/permissions.ts';
import { roleBits } from '../roles/role.service.ts';
import { addProjectMember } from '../projects/project-members.service.ts';
import { recordEvent } from '../events/event.repository.ts';
import { DEFAULT_INVITE_DAYS, MAX_INVITE_DAYS, inviteRowToInvite, inviteStatus, type InviteInput, type ProjectInvite } from './invite.ts';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const DAY_MS = 86_400_000;

/** The users an invite list names (inviters and invitees), by id. */
async function usersOf(db: Db, rows: ProjectInviteRow[]): Promise<Map<number, UserRow>> {
  const ids = [...new Set(rows.flatMap((r) => [r.user_id, r.inviter_user_id]).filter((id): id is number => id !== null))];
  const users = ids.length ? await db.selectFrom('user').selectAll().where('id', 'in', ids).execute() : [];
  return new Map(users.map((u) => [u.id, u]));
}

export async function invitesToJson(db: Db, rows: ProjectInviteRow[]): Promise<ProjectInvite[]> {
  const users = await usersOf(db, rows);
  return rows.map((row) => inviteRowToInvite(row, users));
}

const SORTS = { created: 'created', status: 'status', role: 'role' } as const;

/** The project's invitations; `sort` created|status|role, `order` asc|desc (newest first by default). */
export async function listInvites(db: Db, projectId: number, sort = 'created', order = 'desc'): Promise<ProjectInviteRow[]> {
  const column = Object.hasOwn(SORTS, sort) ? SORTS[sort as keyof typeof SORTS] : 'created';
  const direction = order === 'asc' ? 'asc' : 'desc';
  return db.selectFrom('project_invite').selectAll().where('project_id', '=', projectId).orderBy(column, direction).orderBy('id', direction).execute();
}

export async function findInvite(db: Db, projectId: number, id: number): Promise<ProjectInviteRow> {
  const row = await db.selectFrom('project_invite').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * Creates a pending invitation to a user or an email address and returns it with its one-time
 * token (the database keeps only the token's hash). 409 when the person is already a member or
 * already has a pending invitation to the project.
 */
export async function createInvite(tx: Tx, projectId: number, input: InviteInput, inviterId: number): Promise<{ row: ProjectInviteRow; token: string; mailedToken: string; to: string }> {
  if ((input.email === undefined) === (input.user_id === undefined)) throw badRequest('email: give either email or user_id');
  const expires = input.expires_at ?? new Date(Date.now() + DEFAULT_INVITE_DAYS * DAY_MS).toISOString();
  if (Date.parse(expires) <= Date.now()) throw badRequest('expires_at: must be in the future');
  if (Date.parse(expires) > Date.now() + MAX_INVITE_DAYS * DAY_MS) throw badRequest(`expires_at: at most ${MAX_INVITE_DAYS} days ahead`);
  const invitee = input.user_id !== undefined
    ? await tx.selectFrom('user').selectAll().where('id', '=', input.user_id).executeTakeFirst()
    : await tx.selectFrom('user').selectAll().where((w) => w(w.fn('lower', ['email']), '=', input.email!.toLowerCase())).executeTakeFirst();
  if (input.user_id !== undefined && !invitee) throw badRequest(`user_id: no user with id ${input.user_id}`);
  if (invitee && await tx.selectFrom('project_user').select('user_id').where('project_id', '=', projectId).where('user_id', '=', invitee.id).executeTakeFirst()) {
    throw new ApiError('conflict', 'the user is already a member of this project');
  }
  const email = input.email?.toLowerCase() ?? null;
  const pending = (await tx.selectFrom('project_invite').selectAll().where('project_id', '=', projectId).where('status', '=', 'pending').execute())
    .filter((r) => inviteStatus(r) === 'pending' && ((email !== null && r.email === email) || (input.user_id !== undefined && r.user_id === input.user_id)));
  if (pending.length) throw new ApiError('conflict', 'an invitation for this user is already pending');
  const token = newToken();
  // the mail to an address carries a token of its own: using it proves the address
  const emailToken = email !== null ? newToken() : null;
  const row = await tx.insertInto('project_invite').values({
    project_id: projectId, user_id: input.user_id ?? null, email, role: input.role, status: 'pending', token_hash: hashToken(token),
    email_token_hash: emailToken && hashToken(emailToken),
    inviter_user_id: inviterId, created: now(), expires_at: new Date(Date.parse(expires)).toISOString(), accepted_at: null,
  }).returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { projectId, userId: inviterId, objectType: 'invite', objectId: row.id, description: `Invitation ${row.id} created (${input.role})` });
  return { row, token, mailedToken: emailToken ?? token, to: email ?? invitee?.email ?? '' };
}

/** `PUT …/invites/{id}`: a pending invitation may be declined or expired by the project; a settled one stays. */
export async function setInviteStatus(tx: Tx, actorId: number, row: ProjectInviteRow, status: 'pending' | 'declined' | 'expired'): Promise<void> {
  const current = inviteStatus(row);
  if (current === 'accepted') throw badRequest('status: the invitation was already accepted');
  if (status === 'pending' && current !== 'pending') throw badRequest(`status: a ${current} invitation cannot be pending again`);
  await tx.updateTable('project_invite').set({ status }).where('id', '=', row.id).execute();
  await recordEvent(tx, { projectId: row.project_id, userId: actorId, objectType: 'invite', objectId: row.id, description: `Invitation ${row.id} ${status}` });
}

export async function deleteInvite(tx: Tx, actorId: number, row: ProjectInviteRow): Promise<void> {
  await tx.deleteFrom('project_invite').where('id', '=', row.id).execute();
  await recordEvent(tx, { projectId: row.project_id, userId: actorId, objectType: 'invite', objectId: row.id, description: `Invitation ${row.id} deleted` });
}

/**
 * Whether the invitation's inviter may still give its role in its project: an admin, or a
 * member whose role now manages the team and holds every permission of the role given.
 */
async function inviterMayStillInvite(tx: Tx, row: ProjectInviteRow): Promise<boolean> {
  if (row.inviter_user_id === null) return false;
  const inviter = await tx.selectFrom('user').select('admin').where('id', '=', row.inviter_user_id).executeTakeFirst();
  if (!inviter) return false;
  if (inviter.admin) return true;
  const member = await tx.selectFrom('project_user').select('role').where('project_id', '=', row.project_id).where('user_id', '=', row.inviter_user_id).executeTakeFirst();
  const granted = member ? await roleBits(tx, row.project_id, member.role) : 0;
  return hasPermission(granted, Permission.ManageUsers) && hasPermission(granted, await roleBits(tx, row.project_id, row.role));
}

/**
 * Whether the user may answer the invitation: the user it names, or, for an email invitation,
 * the user with that email who proved it (the token of the mail to it, or a verified email).
 */
function answeredByInvitee(row: ProjectInviteRow, user: UserRow, viaMail: boolean): boolean {
  if (row.user_id !== null) return row.user_id === user.id;
  return row.email === user.email.toLowerCase() && (viaMail || Boolean(user.email_verified));
}

/**
 * Accepts (the signed-in user joins the project with the invitation's role) or declines an
 * invitation by its token (or the token of the mail to the invited address). 404: no such
 * token; 400: not pending any more or expired; 403: the invitation names another user or
 * another email address, an address the user has not proven, or its inviter may no longer
 * give that role.
 */
export async function answerInvite(tx: Tx, token: string, user: UserRow, answer: 'accepted' | 'declined'): Promise<ProjectInviteRow> {
  const hash = hashToken(token);
  const row = await tx.selectFrom('project_invite').selectAll()
    .where((eb) => eb.or([eb('token_hash', '=', hash), eb('email_token_hash', '=', hash)])).executeTakeFirst();
  if (!row) throw notFound('invitation not found');
  const status = inviteStatus(row);
  if (status !== 'pending') throw badRequest(`token: the invitation is ${status}`);
  const viaMail = row.email_token_hash === hash;
  if (!answeredByInvitee(row, user, viaMail)) {
    throw row.user_id === null && row.email === user.email.toLowerCase()
      ? new ApiError('forbidden', 'token: this invitation is for an email address you have not verified; open the link in the mail sent to it')
      : forbidden();
  }
  if (viaMail && !user.email_verified) await tx.updateTable('user').set({ email_verified: 1 }).where('id', '=', user.id).execute();
  if (answer === 'accepted') {
    if (!(await inviterMayStillInvite(tx, row))) throw new ApiError('forbidden', `token: the person who invited you may no longer add ${row.role}s to this project`);
    await addProjectMember(tx, row.project_id, user.id, row.role, user.id);
  }
  const changed = { status: answer, ...(answer === 'accepted' ? { accepted_at: now() } : {}) };
  // conditional on still pending, so the same token answered twice at once counts once
  const done = await tx.updateTable('project_invite').set(changed).where('id', '=', row.id).where('status', '=', 'pending').executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw badRequest('token: the invitation was already answered');
  await recordEvent(tx, { projectId: row.project_id, userId: user.id, objectType: 'invite', objectId: row.id, description: `Invitation ${row.id} ${answer}` });
  return { ...row, ...changed };
}
