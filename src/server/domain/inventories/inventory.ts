import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { InventoryTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';

export type InventoryRow = Selectable<InventoryTable>;

/** Semaphore's types, and two of ours where it has none: `url` (read over HTTP) and `script` (a dynamic inventory in the repository). */
export const INVENTORY_TYPES = ['static', 'static-yaml', 'file', 'terraform-workspace', 'tofu-workspace', 'url', 'script'] as const;
/** Inventories read from a source by a sync: on launch and by hand, each sync recorded. */
export const SOURCE_TYPES: readonly string[] = ['url', 'script'];
export type InventoryType = (typeof INVENTORY_TYPES)[number];

/** Workspace inventory type of a terraform-like app, e.g. `tofu` → `tofu-workspace`. */
export const WORKSPACE_TYPE_OF_APP: Record<string, InventoryType> = {
  terraform: 'terraform-workspace',
  tofu: 'tofu-workspace',
};

/** Body of POST/PUT `/inventory`. `type` is checked by the service for Semaphore's message. */
export const inventoryInputSchema = z.strictObject({
  id: z.number().int().optional(),
  name: fields.name,
  project_id: z.number().int().nullable().optional(),
  type: z.string().max(64, 'at most 64 characters'),
  inventory: fields.text(1024 * 1024).optional(),
  ssh_key_id: fields.optionalId,
  become_key_id: fields.optionalId,
  repository_id: fields.optionalId,
  holder_id: fields.optionalId,
  source_key_id: fields.optionalId,
  sync_cron: z.string().max(255, 'at most 255 characters').nullable().optional(),
  template_id: fields.optionalId,
});
export type InventoryInput = z.infer<typeof inventoryInputSchema>;

export interface Inventory {
  id: number;
  name: string;
  project_id: number;
  inventory: string;
  ssh_key_id: number | null;
  become_key_id: number | null;
  repository_id: number | null;
  holder_id: number | null;
  source_key_id: number | null;
  /** a url or script inventory's sync schedule (cron, in the server's schedule time zone); null: none */
  sync_cron: string | null;
  type: string;
}

/** Maps a row to the API shape. */
export function inventoryRowToInventory(row: InventoryRow): Inventory {
  return {
    id: row.id, name: row.name, project_id: row.project_id, inventory: row.inventory, ssh_key_id: row.ssh_key_id,
    become_key_id: row.become_key_id, repository_id: row.repository_id, holder_id: row.holder_id, source_key_id: row.source_key_id ?? null,
    sync_cron: row.sync_cron ?? null, type: row.type,
  };
}
