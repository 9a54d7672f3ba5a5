import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';

/** A project with more inventories than a person can tick through would list none (= any). */
export const MAX_ALLOWED_INVENTORIES = 200;

/**
 * Checks a template's `allowed_inventories`: each an inventory of the project, none twice.
 * @example await checkAllowedInventories(tx, projectId, [3, 7]);
 */
export async function checkAllowedInventories(db: Db | Tx, projectId: number, ids: number[]): Promise<number[]> {
  if (ids.length > MAX_ALLOWED_INVENTORIES) throw badRequest(`allowed_inventories: at most ${MAX_ALLOWED_INVENTORIES} inventories`);
  const unique = new Set(ids);
  if (unique.size !== ids.length) throw badRequest('allowed_inventories: an inventory is listed twice');
  if (!ids.length) return [];
  const found = await db.selectFrom('inventory').select('id').where('project_id', '=', projectId).where('id', 'in', ids).execute();
  const known = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !known.has(id));
  if (missing !== undefined) throw badRequest(`allowed_inventories: no inventory ${missing} in this project`);
  return [...ids].sort((a, b) => a - b);
}

/** The allowed inventories of each template, by template id; templates listing none are absent. */
export async function readAllowedInventories(db: Db | Tx, templateIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!templateIds.length) return out;
  const rows = await db.selectFrom('template_allowed_inventory').select(['template_id', 'inventory_id'])
    .where('template_id', 'in', templateIds).orderBy('template_id').orderBy('inventory_id').execute();
  for (const row of rows) out.set(row.template_id, [...(out.get(row.template_id) ?? []), row.inventory_id]);
  return out;
}

/** Makes a template's allowed inventories exactly `ids`. */
export async function writeAllowedInventories(tx: Tx, templateId: number, ids: number[]): Promise<void> {
  await tx.deleteFrom('template_allowed_inventory').where('template_id', '=', templateId).execute();
  if (ids.length) await tx.insertInto('template_allowed_inventory').values(ids.map((inventory_id) => ({ template_id: templateId, inventory_id }))).execute();
}

/**
 * Refuses a start's inventory the template does not list (its own inventory always passes: it
 * is no choice). A template listing none lets a start choose any.
 */
export async function assertInventoryAllowed(db: Db | Tx, template: { id: number; inventory_id: number | null }, inventoryId: number): Promise<void> {
  if (inventoryId === template.inventory_id) return;
  const allowed = (await readAllowedInventories(db, [template.id])).get(template.id);
  if (allowed && !allowed.includes(inventoryId)) throw badRequest(`inventory_id: inventory ${inventoryId} is not one of the inventories this template allows`);
}
