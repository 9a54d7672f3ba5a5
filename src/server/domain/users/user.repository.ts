import type { Db, Tx } from '../../db/database.ts';
import type { NewUser, UserRow } from '../../db/schema.ts';

export function findUserById(db: Db | Tx, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sign-in accepts the username or the email, compared lower-cased. */
export function findUserByLogin(db: Db | Tx, login: string): Promise<UserRow | undefined> {
  const value = login.trim().toLowerCase();
  return db.selectFrom('user').selectAll()
    .where((eb) => eb.or([eb(eb.fn('lower', ['username']), '=', value), eb(eb.fn('lower', ['email']), '=', value)]))
    .executeTakeFirst();
}

export async function insertUser(db: Db | Tx, user: NewUser): Promise<UserRow> {
  return db.insertInto('user').values(user).returningAll().executeTakeFirstOrThrow();
}
