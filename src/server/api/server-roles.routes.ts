import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { requireAdmin } from '../auth/authenticate.ts';
import { roleInputSchema } from '../domain/roles/role.ts';
import { createServerRole, deleteServerRole, findServerRole, listServerRoles, shownServerRole, updateServerRole } from '../domain/roles/server-role.service.ts';

/**
 * `/api/roles` (admins): server-wide role templates (issue 52 item 2), which every project's
 * members may hold by slug. Semaphore has no such route; the shape is the project roles'.
 */
export const serverRolesRoutes = new Hono<AppEnv>();

serverRolesRoutes.use('*', requireAdmin());

serverRolesRoutes.get('/', async (c) => c.json(await listServerRoles(c.var.deps.db)));

serverRolesRoutes.post('/', async (c) => {
  const input = await readJson(c, roleInputSchema);
  return c.json(await c.var.deps.db.transaction().execute((tx) => createServerRole(tx, c.var.user.id, input)), 201);
});

serverRolesRoutes.get('/:role_id', async (c) => {
  return c.json(shownServerRole(await findServerRole(c.var.deps.db, idParam(c, 'role_id'))));
});

serverRolesRoutes.put('/:role_id', async (c) => {
  const id = idParam(c, 'role_id');
  const input = await readJson(c, roleInputSchema);
  await c.var.deps.db.transaction().execute(async (tx) => updateServerRole(tx, c.var.user.id, await findServerRole(tx, id), input));
  return c.body(null, 204);
});

serverRolesRoutes.delete('/:role_id', async (c) => {
  const id = idParam(c, 'role_id');
  await c.var.deps.db.transaction().execute(async (tx) => deleteServerRole(tx, c.var.user.id, await findServerRole(tx, id)));
  return c.body(null, 204);
});
