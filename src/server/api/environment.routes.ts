import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { readListOrder } from '../http/list-order.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl } from '../domain/project-resource.ts';
import { environmentInputSchema, environmentRowToEnvironment } from '../domain/environments/environment.ts';
import {
  createEnvironment, deleteEnvironment, findEnvironment, listEnvironments, updateEnvironment,
} from '../domain/environments/environment.service.ts';
import { refsHandler } from './resource-refs.route.ts';

/** `/api/project/:project_id/environment`: variable groups. Secret values go in, never out. */
export const environmentRoutes = new Hono<AppEnv>();

environmentRoutes.get('/', async (c) => {
  const groups = await listEnvironments(c.var.deps.db, c.var.project.id, readListOrder(c, ['name'], 'name'));
  return c.json(groups.map((g) => environmentRowToEnvironment(g.row, g.secrets)));
});

environmentRoutes.post('/', async (c) => {
  const input = await readJson(c, environmentInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const { db, secrets, config } = c.var.deps;
  const created = await db.transaction().execute((tx) => createEnvironment(tx, secrets, actorOf(c), input, config.secret_sources));
  return c.json(environmentRowToEnvironment(created.row, created.secrets), 201);
});

environmentRoutes.get('/:environment_id', async (c) => {
  const { row, secrets } = await findEnvironment(c.var.deps.db, c.var.project.id, idParam(c, 'environment_id'));
  return c.json(environmentRowToEnvironment(row, secrets));
});

environmentRoutes.get('/:environment_id/refs', refsHandler('environment', 'environment_id'));

environmentRoutes.put('/:environment_id', async (c) => {
  const id = idParam(c, 'environment_id');
  const input = await readJson(c, environmentInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  const { db, secrets, config } = c.var.deps;
  await db.transaction().execute((tx) => updateEnvironment(tx, secrets, actorOf(c), id, input, config.secret_sources));
  return c.body(null, 204);
});

environmentRoutes.delete('/:environment_id', async (c) => {
  const id = idParam(c, 'environment_id');
  await c.var.deps.db.transaction().execute((tx) => deleteEnvironment(tx, actorOf(c), id));
  return c.body(null, 204);
});
