import type { Db, Tx } from '../../db/database.ts';
import type { InventoryTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { generateAlias } from '../integrations/integration-alias.service.ts';
import { loadProjectRow, type Actor } from '../project-resource.ts';
import { aliasInputSchema } from './terraform-alias.schema.ts';

export const WORKSPACE_TYPES = ['terraform-workspace', 'tofu-workspace'];

export { aliasInputSchema };

export interface TerraformAlias { id: number; url: string; auth_key_id: number | null }

/** The state backend address of an alias: `<web_host>/api/terraform/<alias>`. */
export function stateAddress(webHost: string, alias: string): string {
  return `${webHost.replace(/\/+$/, '')}/api/terraform/${alias}`;
}

/** The inventory of the project, which must be a terraform/tofu workspace (else 400). */
export async function loadWorkspace(db: Db | Tx, projectId: number, inventoryId: number): Promise<Selectable<InventoryTable>> {
  const inventory = await loadProjectRow(db, 'inventory', projectId, inventoryId);
  if (!WORKSPACE_TYPES.includes(inventory.type)) throw badRequest('inventory: not a terraform or tofu workspace');
  return inventory;
}

export async function listTerraformAliases(db: Db | Tx, webHost: string, projectId: number, inventoryId: number): Promise<TerraformAlias[]> {
  const rows = await db.selectFrom('terraform_alias').select(['id', 'alias', 'auth_key_id'])
    .where('project_id', '=', projectId).where('inventory_id', '=', inventoryId).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, url: stateAddress(webHost, r.alias), auth_key_id: r.auth_key_id }));
}

export async function findTerraformAlias(db: Db | Tx, webHost: string, projectId: number, inventoryId: number, aliasId: number): Promise<TerraformAlias> {
  const found = (await listTerraformAliases(db, webHost, projectId, inventoryId)).find((a) => a.id === aliasId);
  if (!found) throw notFound();
  return found;
}

/** Adds an alias with a fresh random name; the key, when given, must be a login_password key of the project. */
export async function createTerraformAlias(tx: Tx, actor: Actor, inventoryId: number, authKeyId: number | null): Promise<number> {
  await assertAuthKey(tx, actor.projectId, authKeyId);
  const row = await tx.insertInto('terraform_alias')
    .values({ project_id: actor.projectId, inventory_id: inventoryId, alias: generateAlias(), auth_key_id: authKeyId, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, objectType: 'inventory', objectId: inventoryId, description: `Terraform state alias ${row.id} created` });
  return row.id;
}

export async function setTerraformAliasKey(tx: Tx, actor: Actor, inventoryId: number, aliasId: number, authKeyId: number | null): Promise<void> {
  await assertAuthKey(tx, actor.projectId, authKeyId);
  const result = await tx.updateTable('terraform_alias').set({ auth_key_id: authKeyId })
    .where('id', '=', aliasId).where('project_id', '=', actor.projectId).where('inventory_id', '=', inventoryId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound();
  await recordEvent(tx, { ...actor, objectType: 'inventory', objectId: inventoryId, description: `Terraform state alias ${aliasId} updated` });
}

export async function deleteTerraformAlias(tx: Tx, actor: Actor, inventoryId: number, aliasId: number): Promise<void> {
  const result = await tx.deleteFrom('terraform_alias')
    .where('id', '=', aliasId).where('project_id', '=', actor.projectId).where('inventory_id', '=', inventoryId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound();
  await recordEvent(tx, { ...actor, objectType: 'inventory', objectId: inventoryId, description: `Terraform state alias ${aliasId} deleted` });
}

async function assertAuthKey(db: Db | Tx, projectId: number, keyId: number | null): Promise<void> {
  if (keyId === null) return;
  const key = await db.selectFrom('access_key').select('type').where('id', '=', keyId).where('project_id', '=', projectId)
    .where('owner', '=', '').executeTakeFirst();
  if (!key) throw badRequest('auth_key_id: no such key in this project');
  if (key.type !== 'login_password') throw badRequest('auth_key_id: must be a login_password key');
}
