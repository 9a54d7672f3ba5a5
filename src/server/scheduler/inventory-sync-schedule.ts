import type { Db } from '../db/database.ts';
import type { InventoryRow } from '../domain/inventories/inventory.ts';
import { SOURCE_TYPES } from '../domain/inventories/inventory.ts';
import { nextDue } from '../lib/cron.ts';

/** Syncs one inventory for its schedule (the engine's sync, handed in by whoever starts the scheduler). */
export type ScheduledSync = (inventory: InventoryRow, dueAt: Date) => Promise<void>;

/** Every url or script inventory with a sync schedule. */
export async function listSyncSchedules(db: Db): Promise<InventoryRow[]> {
  return db.selectFrom('inventory').selectAll().where('sync_cron', 'is not', null).where('sync_cron', '!=', '').where('type', 'in', [...SOURCE_TYPES]).execute();
}

/** One inventory as it is now, if it still has a sync schedule. */
export async function findSyncSchedule(db: Db, id: number): Promise<InventoryRow | undefined> {
  const row = await db.selectFrom('inventory').selectAll().where('id', '=', id).executeTakeFirst();
  return row?.sync_cron && SOURCE_TYPES.includes(row.type) ? row : undefined;
}

/** The next sync strictly after `after`; null for an expression that no longer parses. */
export function nextSyncDue(row: InventoryRow, after: Date, timezone: string): Date | null {
  try {
    return nextDue(row.sync_cron ?? '', after, timezone);
  } catch {
    return null;
  }
}

/**
 * Claims one due sync: the (inventory_id, due_at) primary key lets exactly one of several
 * server processes insert the row, and only that process syncs.
 */
export async function claimSyncFiring(db: Db, inventoryId: number, dueAt: string): Promise<boolean> {
  const inserted = await db.insertInto('inventory_sync_firing').values({ inventory_id: inventoryId, due_at: dueAt })
    .onConflict((oc) => oc.columns(['inventory_id', 'due_at']).doNothing())
    .returning('inventory_id').executeTakeFirst();
  return inserted !== undefined;
}

/** Forgets sync claims older than `before`. */
export async function pruneSyncFirings(db: Db, before: string): Promise<void> {
  await db.deleteFrom('inventory_sync_firing').where('due_at', '<', before).execute();
}
