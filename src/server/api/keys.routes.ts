import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { readListOrder } from '../http/list-order.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl } from '../domain/project-resource.ts';
import { accessKeyInputSchema, accessKeyRowToKey } from '../domain/keys/access-key.ts';
import { createKey, deleteKey, findProjectKey, listProjectKeys, updateKey } from '../domain/keys/access-key.service.ts';
import { refsHandler } from './resource-refs.route.ts';

/** `/api/project/:project_id/keys`: the key store. Secrets go in, never out. */
export const keysRoutes = new Hono<AppEnv>();

keysRoutes.get('/', async (c) => {
  const rows = await listProjectKeys(c.var.deps.db, c.var.project.id, readListOrder(c, ['name', 'type'], 'name'));
  return c.json(rows.map((row) => accessKeyRowToKey(row, { listed: true })));
});

keysRoutes.post('/', async (c) => {
  const input = await readJson(c, accessKeyInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const { db } = c.var.deps;
  const row = await db.transaction().execute((tx) => createKey(tx, c.var.deps, actorOf(c), input));
  return c.json(accessKeyRowToKey(row), 201);
});

keysRoutes.get('/:key_id', async (c) => {
  const row = await findProjectKey(c.var.deps.db, c.var.project.id, idParam(c, 'key_id'));
  return c.json(accessKeyRowToKey(row));
});

keysRoutes.get('/:key_id/refs', refsHandler('key', 'key_id'));

keysRoutes.put('/:key_id', async (c) => {
  const id = idParam(c, 'key_id');
  const input = await readJson(c, accessKeyInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  await c.var.deps.db.transaction().execute((tx) => updateKey(tx, c.var.deps, actorOf(c), id, input));
  return c.body(null, 204);
});

keysRoutes.delete('/:key_id', async (c) => {
  const id = idParam(c, 'key_id');
  await c.var.deps.db.transaction().execute((tx) => deleteKey(tx, actorOf(c), id));
  return c.body(null, 204);
});
