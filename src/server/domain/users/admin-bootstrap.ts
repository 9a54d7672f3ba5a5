import type { Db } from '../../db/database.ts';
import { hashPassword } from '../../access/password.ts';
import { now } from '../../lib/time.ts';
import { findUserByLogin } from './user.repository.ts';

/** Creates the SEMAPHORE_ADMIN user once; an existing user of that name is left as it is. */
export async function ensureAdminUser(db: Db, admin: { login: string; password: string; name: string; email: string }): Promise<void> {
  if (await findUserByLogin(db, admin.login)) return;
  const password = await hashPassword(admin.password);
  await db.insertInto('user').values({
    created: now(), username: admin.login, name: admin.name, email: admin.email, password, admin: 1, external: 0, alert: 0,
  }).onConflict((oc) => oc.doNothing()).execute();
}
