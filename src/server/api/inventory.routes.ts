import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { readListOrder } from '../http/list-order.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl, loadProjectRow } from '../domain/project-resource.ts';
import { inventoryInputSchema, inventoryRowToInventory, SOURCE_TYPES } from '../domain/inventories/inventory.ts';
import { createInventory, deleteInventory, listInventories, updateInventory } from '../domain/inventories/inventory.service.ts';
import { refsHandler } from './resource-refs.route.ts';
import { badRequest } from '../http/errors.ts';
import { InventoryReadError, readInventoryHosts } from '../engine/inventory/ansible-inventory.ts';
import { listInventorySyncs, syncInventory } from '../engine/inventory/inventory-sync.ts';
import { reloadSchedules } from '../scheduler/scheduler.ts';

/** `/api/project/:project_id/inventory`. */
export const inventoryRoutes = new Hono<AppEnv>();

/** `?template_id=` that is no id (the new-template form sends `new`) is ignored, as in Semaphore. */
inventoryRoutes.get('/', async (c) => {
  const raw = c.req.query('template_id');
  const templateId = raw && /^\d{1,15}$/.test(raw) ? raw : undefined;
  const rows = await listInventories(c.var.deps.db, c.var.project.id, readListOrder(c, ['name', 'type'], 'name'), {
    app: c.req.query('app') || undefined,
    templateId: templateId ? Number(templateId) : undefined,
  });
  return c.json(rows.map(inventoryRowToInventory));
});

inventoryRoutes.post('/', async (c) => {
  const input = await readJson(c, inventoryInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const row = await c.var.deps.db.transaction().execute((tx) => createInventory(tx, actorOf(c), input));
  if (row.sync_cron) await reloadSchedules();
  return c.json(inventoryRowToInventory(row), 201);
});

inventoryRoutes.get('/:inventory_id', async (c) => {
  const row = await loadProjectRow(c.var.deps.db, 'inventory', c.var.project.id, idParam(c, 'inventory_id'));
  return c.json(inventoryRowToInventory(row));
});

/** The inventory's groups and hosts as `ansible-inventory --list` reads them; 400 with Ansible's message when it cannot. */
inventoryRoutes.get('/:inventory_id/hosts', async (c) => {
  const row = await loadProjectRow(c.var.deps.db, 'inventory', c.var.project.id, idParam(c, 'inventory_id'));
  try {
    return c.json(await readInventoryHosts(c.var.deps, row));
  } catch (err) {
    if (err instanceof InventoryReadError) throw badRequest(err.message);
    throw err;
  }
});

/** Reads a url or script inventory's source now and records the sync: 201 with it, also when the source failed (its `error`). */
inventoryRoutes.post('/:inventory_id/sync', async (c) => {
  const row = await loadProjectRow(c.var.deps.db, 'inventory', c.var.project.id, idParam(c, 'inventory_id'));
  if (!SOURCE_TYPES.includes(row.type)) throw badRequest(`a ${row.type} inventory has no source to sync`);
  const { sync } = await syncInventory(c.var.deps, row, { userId: actorOf(c).userId });
  return c.json(sync, 201);
});

/** The inventory's newest syncs, newest first. */
inventoryRoutes.get('/:inventory_id/syncs', async (c) => {
  const row = await loadProjectRow(c.var.deps.db, 'inventory', c.var.project.id, idParam(c, 'inventory_id'));
  return c.json(await listInventorySyncs(c.var.deps, row.id));
});

inventoryRoutes.get('/:inventory_id/refs', refsHandler('inventory', 'inventory_id'));

inventoryRoutes.put('/:inventory_id', async (c) => {
  const id = idParam(c, 'inventory_id');
  const input = await readJson(c, inventoryInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  await c.var.deps.db.transaction().execute((tx) => updateInventory(tx, actorOf(c), id, input));
  // a sync schedule set, changed or dropped applies without a restart
  await reloadSchedules();
  return c.body(null, 204);
});

inventoryRoutes.delete('/:inventory_id', async (c) => {
  const id = idParam(c, 'inventory_id');
  await c.var.deps.db.transaction().execute((tx) => deleteInventory(tx, actorOf(c), id));
  return c.body(null, 204);
});
