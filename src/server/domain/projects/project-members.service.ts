import type { Db, Tx } from '../../db/database.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { dropMemberGrants } from '../templates/template-grants.ts';
import { userRowToUser, type User } from '../users/user.ts';
import { ownValue } from '../../lib/own-value.ts';

/** A project member as `GET /project/{id}/users` shows it: the user plus their role. */
export interface ProjectMember extends User {
  role: string;
}

const SORTABLE = { name: 'user.name', username: 'user.username', email: 'user.email', role: 'project_user.role' } as const;

/** Members of the project; `sort` is one of name, username, email, role (default name). */
export async function listProjectMembers(db: Db, projectId: number, sort?: string, order?: string): Promise<ProjectMember[]> {
  const column = ownValue(SORTABLE, sort ?? '') ?? SORTABLE.name;
  const rows = await db.selectFrom('project_user').innerJoin('user', 'user.id', 'project_user.user_id')
    .selectAll('user').select('project_user.role')
    .where('project_user.project_id', '=', projectId)
    .orderBy(column, order === 'desc' ? 'desc' : 'asc').orderBy('user.id')
    .execute();
  return rows.map(({ role, ...user }) => ({ ...userRowToUser(user), role }));
}

/** Adds a user to the team; 409 when already a member, 400 when the user does not exist. */
export async function addProjectMember(tx: Tx, projectId: number, userId: number, role: string, actorId: number): Promise<void> {
  const user = await tx.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw badRequest(`user_id: no user with id ${userId}`);
  if (await findRole(tx, projectId, userId)) throw new ApiError('conflict', 'user is already a member of this project');
  await tx.insertInto('project_user').values({ project_id: projectId, user_id: userId, role, created: now() }).execute();
  await recordEvent(tx, { projectId, userId: actorId, objectType: 'user', objectId: userId, description: `User ID ${userId} added to team` });
}

/** Changes a member's role; 404 when the user is not a member. */
export async function changeProjectMemberRole(tx: Tx, projectId: number, userId: number, role: string, actorId: number): Promise<void> {
  if (!(await findRole(tx, projectId, userId))) throw notFound();
  await tx.updateTable('project_user').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  await recordEvent(tx, { projectId, userId: actorId, objectType: 'user', objectId: userId, description: `Changed role for User ID ${userId}` });
}

/** Removes a member from the team; 404 when the user is not a member. */
export async function removeProjectMember(tx: Tx, projectId: number, userId: number, actorId: number): Promise<void> {
  if (!(await findRole(tx, projectId, userId))) throw notFound();
  await tx.deleteFrom('project_user').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  await dropMemberGrants(tx, projectId, userId);
  await recordEvent(tx, { projectId, userId: actorId, objectType: 'user', objectId: userId, description: `User ID ${userId} removed from team` });
}

/** The user's role in the project, or undefined for non-members. */
export async function findRole(db: Db | Tx, projectId: number, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('project_user').select('role').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}
