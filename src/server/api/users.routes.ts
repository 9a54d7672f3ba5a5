import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound, unauthorized } from '../http/errors.ts';
import { idParam, readJson } from '../http/validation.ts';
import { requireAdmin } from '../auth/authenticate.ts';
import { requireReauthentication } from '../auth/reauthentication.ts';
import { userRowToUser } from '../domain/users/user.ts';
import { findTotp, totpSummary } from '../auth/totp.ts';
import { findUserById } from '../domain/users/user.repository.ts';
import { passwordSchema, userCreateSchema, userUpdateSchema } from '../domain/users/user.schema.ts';
import { changePassword, createUser, deleteUser, listUsers, updateUser } from '../domain/users/user.service.ts';

/** `/api/users`: the user directory. Admins manage everyone; a user manages only themself. */
export const usersRoutes = new Hono<AppEnv>();

usersRoutes.get('/', async (c) => {
  const rows = await listUsers(c.var.deps.db);
  if (c.var.user.admin) return c.json(rows.map(userRowToUser));
  return c.json(rows.map((row) => ({ id: row.id, username: row.username, name: row.name })));
});

usersRoutes.post('/', requireAdmin(401), async (c) => {
  const input = await readJson(c, userCreateSchema);
  const user = await c.var.deps.db.transaction().execute((tx) => createUser(tx, input, c.var.user.id));
  return c.json(userRowToUser(user), 201);
});

usersRoutes.get('/:user_id', async (c) => {
  const user = await loadTargetUser(c);
  const totp = await findTotp(c.var.deps.db, user.id);
  return c.json({ ...userRowToUser(user), ...(totp ? { totp: totpSummary(totp) } : {}) });
});

usersRoutes.put('/:user_id', async (c) => {
  const target = await loadTargetUser(c);
  const input = await readJson(c, userUpdateSchema);
  // nobody may change their own admin flag, admins included (reference §1)
  if (target.id === c.var.user.id && input.admin !== undefined && input.admin !== Boolean(target.admin)) throw unauthorized();
  // only admins grant project creation; from others the field is ignored (clients send the whole user back)
  if (!c.var.user.admin) delete input.can_create_project;
  await c.var.deps.db.transaction().execute((tx) => updateUser(tx, target, input, c.var.user.id));
  return c.body(null, 204);
});

usersRoutes.delete('/:user_id', async (c) => {
  const target = await loadTargetUser(c);
  await c.var.deps.db.transaction().execute((tx) => deleteUser(tx, target, c.var.user.id));
  return c.body(null, 204);
});

usersRoutes.post('/:user_id/password', async (c) => {
  const target = await loadTargetUser(c);
  const { password, ...proof } = await readJson(c, passwordSchema);
  // Semaphore's own account dialog sends no current password: a fresh browser session needs none
  await requireReauthentication(c, target, proof, { freshSession: true });
  const keep = target.id === c.var.user.id ? c.var.sessionId : undefined;
  await c.var.deps.db.transaction().execute((tx) => changePassword(tx, target, password, c.var.user.id, keep));
  return c.body(null, 204);
});

/** The user named in the path, if the caller is an admin or that user; otherwise 401 (as Semaphore). */
export async function loadTargetUser(c: Context<AppEnv>) {
  const id = idParam(c, 'user_id');
  if (!c.var.user.admin && c.var.user.id !== id) throw unauthorized();
  const user = await findUserById(c.var.deps.db, id);
  if (!user) throw notFound();
  return user;
}
