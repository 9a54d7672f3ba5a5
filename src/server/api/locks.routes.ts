import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { notFound } from '../http/errors.ts';
import { lockInputSchema } from '../domain/locks/lock.ts';
import { createLock, deleteLock, findLock, listLocks, updateLock } from '../domain/locks/lock.service.ts';
import { actorOf } from './route-context.ts';


/** `/api/project/:project_id/locks`: named locks templates share (Signalbox's own, issue 48). */
export const locksRoutes = new Hono<AppEnv>();

locksRoutes.get('/', async (c) => c.json(await listLocks(c.var.deps.db, c.var.project.id)));

locksRoutes.post('/', async (c) => {
  const input = await readJson(c, lockInputSchema);
  const row = await c.var.deps.db.transaction().execute((tx) => createLock(tx, actorOf(c), input));
  return c.json((await listLocks(c.var.deps.db, c.var.project.id, row.id))[0], 201);
});

locksRoutes.get('/:lock_id', async (c) => {
  const [lock] = await listLocks(c.var.deps.db, c.var.project.id, idParam(c, 'lock_id'));
  if (!lock) throw notFound();
  return c.json(lock);
});

locksRoutes.put('/:lock_id', async (c) => {
  const id = idParam(c, 'lock_id');
  const input = await readJson(c, lockInputSchema);
  await c.var.deps.db.transaction().execute(async (tx) => updateLock(tx, actorOf(c), await findLock(tx, c.var.project.id, id), input));
  return c.body(null, 204);
});

locksRoutes.delete('/:lock_id', async (c) => {
  const id = idParam(c, 'lock_id');
  await c.var.deps.db.transaction().execute(async (tx) => deleteLock(tx, actorOf(c), await findLock(tx, c.var.project.id, id)));
  return c.body(null, 204);
});
