import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { notFound } from '../http/errors.ts';
import { roleInputSchema } from '../domain/roles/role.ts';
import { createRole, deleteRole, findRole, listRoles, updateRole } from '../domain/roles/role.service.ts';
import { actorOf } from './route-context.ts';

/**
 * `/api/project/:project_id/roles`: the roles members may hold — Semaphore's four (fixed) and
 * the project's own, each a set of permission bits (Signalbox's own, issue 52).
 */
export const rolesRoutes = new Hono<AppEnv>();

rolesRoutes.get('/', async (c) => c.json(await listRoles(c.var.deps.db, c.var.project.id)));

rolesRoutes.post('/', async (c) => {
  const input = await readJson(c, roleInputSchema);
  const row = await c.var.deps.db.transaction().execute((tx) => createRole(tx, actorOf(c), input));
  return c.json({ id: row.id, slug: row.slug, name: row.name, permissions: row.permissions, builtin: false, server: false }, 201);
});

rolesRoutes.get('/:role_id', async (c) => {
  const id = idParam(c, 'role_id');
  const role = (await listRoles(c.var.deps.db, c.var.project.id)).find((r) => r.id === id);
  if (!role) throw notFound();
  return c.json(role);
});

rolesRoutes.put('/:role_id', async (c) => {
  const id = idParam(c, 'role_id');
  const input = await readJson(c, roleInputSchema);
  await c.var.deps.db.transaction().execute(async (tx) => updateRole(tx, actorOf(c), await findRole(tx, c.var.project.id, id), input));
  return c.body(null, 204);
});

rolesRoutes.delete('/:role_id', async (c) => {
  const id = idParam(c, 'role_id');
  await c.var.deps.db.transaction().execute(async (tx) => deleteRole(tx, actorOf(c), await findRole(tx, c.var.project.id, id)));
  return c.body(null, 204);
});
