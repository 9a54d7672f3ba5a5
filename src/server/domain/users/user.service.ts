import type { Db, Tx } from '../../db/database.ts';
import type { UserRow } from '../../db/schema.ts';
import { hashPassword } from '../../access/password.ts';
import { badRequest } from '../../http/errors.ts';
import { now, toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { insertUser } from './user.repository.ts';
import { deleteUserOptions } from './user-options.ts';
import type { UserCreateInput, UserUpdateInput } from './user.schema.ts';

/**
 * Creates a user after checking that username and email are free (compared case-insensitively).
 * External users (LDAP/OIDC) never get a local password. A local user may be created without one,
 * as Semaphore allows: it cannot sign in with a password until one is set.
 * @example await db.transaction().execute((tx) => createUser(tx, input, adminId));
 */
export async function createUser(tx: Tx, input: UserCreateInput, actorId: number | null): Promise<UserRow> {
  if (input.external && input.password) throw badRequest('password: external users cannot have a password');
  await assertLoginFree(tx, input.username, input.email, null);
  const user = await insertUser(tx, {
    created: now(),
    username: input.username,
    name: input.name,
    email: input.email,
    password: input.password ? await hashPassword(input.password) : '',
    admin: toFlag(input.admin),
    external: toFlag(input.external),
    alert: toFlag(input.alert),
    can_create_project: toFlag(input.can_create_project),
  });
  await recordUserEvent(tx, actorId, user.id, 'created');
  return user;
}

/**
 * Updates name, username, email, alert and the admin and can_create_project flags (the route decides who may). The username
 * and email of an external user come from its identity provider and cannot change.
 */
export async function updateUser(tx: Tx, current: UserRow, input: UserUpdateInput, actorId: number | null): Promise<void> {
  if (current.external && input.username !== current.username) throw badRequest('username: cannot be changed for an external user');
  if (current.external && input.email !== current.email) throw badRequest('email: cannot be changed for an external user');
  await assertLoginFree(tx, input.username, input.email, current.id);
  await tx.updateTable('user').set({
    username: input.username,
    name: input.name,
    email: input.email,
    // an address one sets oneself is unproven; one an admin (or the server's operator) sets is vouched for
    email_verified: input.email.toLowerCase() === current.email.toLowerCase() ? current.email_verified : toFlag(actorId !== current.id),
    alert: input.alert === undefined ? current.alert : toFlag(input.alert),
    admin: input.admin === undefined ? current.admin : toFlag(input.admin),
    can_create_project: input.can_create_project === undefined ? current.can_create_project : toFlag(input.can_create_project),
  }).where('id', '=', current.id).execute();
  await recordUserEvent(tx, actorId, current.id, 'updated');
}

/** Sets a new password and ends the user's other sessions, so a leaked session stops working. */
export async function changePassword(tx: Tx, user: UserRow, password: string, actorId: number | null, keepSessionId?: string): Promise<void> {
  if (user.external) throw badRequest('password: cannot be set for an external user');
  await tx.updateTable('user').set({ password: await hashPassword(password) }).where('id', '=', user.id).execute();
  let sessions = tx.updateTable('session').set({ expired: 1 }).where('user_id', '=', user.id);
  if (keepSessionId) sessions = sessions.where('id', '!=', keepSessionId);
  await sessions.execute();
  await recordUserEvent(tx, actorId, user.id, 'password changed');
}

/** Deletes a user; memberships, sessions and tokens go with it (foreign keys cascade), options too. */
export async function deleteUser(tx: Tx, user: UserRow, actorId: number | null): Promise<void> {
  await deleteUserOptions(tx, user.id);
  await tx.deleteFrom('user').where('id', '=', user.id).execute();
  await recordUserEvent(tx, actorId === user.id ? null : actorId, user.id, 'deleted');
}

/** Lists users by username. */
export function listUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('user').selectAll().orderBy('username').orderBy('id').execute();
}

async function assertLoginFree(tx: Tx, username: string, email: string, exceptId: number | null): Promise<void> {
  const taken = await tx.selectFrom('user').select(['id', 'username', 'email'])
    .where((eb) => eb.or([
      eb(eb.fn('lower', ['username']), '=', username.toLowerCase()),
      eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
      // sign-in accepts either, so a username may not equal someone's email and vice versa
      eb(eb.fn('lower', ['email']), '=', username.toLowerCase()),
      eb(eb.fn('lower', ['username']), '=', email.toLowerCase()),
    ]))
    .execute();
  const other = taken.filter((row) => row.id !== exceptId);
  if (other.some((row) => row.username.toLowerCase() === username.toLowerCase() || row.email.toLowerCase() === username.toLowerCase())) {
    throw badRequest(`username: "${username}" is already taken`);
  }
  if (other.length) throw badRequest(`email: "${email}" is already used by another user`);
}

/** Project-less events name users by id only; the actor and the user concerned see them. */
function recordUserEvent(tx: Tx, actorId: number | null, userId: number, what: string): Promise<void> {
  return recordEvent(tx, { projectId: null, userId: actorId, objectType: 'user', objectId: userId, description: `User ID ${userId} ${what}` });
}
