import type { Db, Tx } from '../../db/database.ts';
import { checkRepoPath } from '../shared/repo-path.ts';
import { badRequest } from '../../http/errors.ts';
import type { ListOrder } from '../../http/list-order.ts';
import { recordEvent } from '../events/event.repository.ts';
import { loadProjectRow, type Actor } from '../project-resource.ts';
import { assertNotInUse } from '../refs/resource-refs.ts';
import { assertProjectKey } from '../keys/project-key-ref.ts';
import { outgoingUrlProblem } from '../../lib/outgoing-http.ts';
import { INVENTORY_TYPES, SOURCE_TYPES, WORKSPACE_TYPE_OF_APP, type InventoryInput, type InventoryRow, type InventoryType } from './inventory.ts';
import { ownValue } from '../../lib/own-value.ts';
import { requireValidCron } from '../schedules/schedule.service.ts';

export interface InventoryFilter {
  /** terraform/tofu: only that app's workspaces; any other app: no workspaces */
  app?: string;
  /** only inventories the template uses (its inventory, attached and held workspaces) */
  templateId?: number;
}

const WORKSPACE_TYPES = Object.values(WORKSPACE_TYPE_OF_APP);

/** Inventories of a project, filtered as the template form asks (`?app=&template_id=`). */
export function listInventories(db: Db, projectId: number, order: ListOrder<'name' | 'type'>, filter: InventoryFilter = {}): Promise<InventoryRow[]> {
  let query = db.selectFrom('inventory').selectAll().where('project_id', '=', projectId);
  if (filter.app) {
    const workspace = ownValue(WORKSPACE_TYPE_OF_APP, filter.app);
    query = workspace ? query.where('type', '=', workspace) : query.where('type', 'not in', WORKSPACE_TYPES);
  }
  if (filter.templateId !== undefined) {
    const templateId = filter.templateId;
    query = query.where((eb) => eb.or([
      eb('holder_id', '=', templateId),
      eb('id', 'in', eb.selectFrom('template_inventory').select('inventory_id').where('template_id', '=', templateId)),
      eb('id', 'in', eb.selectFrom('template').select('inventory_id').where('id', '=', templateId).where('inventory_id', 'is not', null).$castTo<number>()),
    ]));
  }
  return query.orderBy(order.column, order.direction).orderBy('id').execute();
}

async function validInventoryValues(tx: Tx, projectId: number, input: InventoryInput, unknownTypeMessage: string) {
  if (!(INVENTORY_TYPES as readonly string[]).includes(input.type)) throw badRequest(unknownTypeMessage);
  const type = input.type as InventoryType;
  const inventory = (input.inventory ?? '').trim();
  if (type === 'file') {
    if (!inventory) throw badRequest('inventory: path required for a file inventory');
    checkRepoPath(inventory, 'inventory');
  }
  if (type === 'script') {
    if (!inventory) throw badRequest('inventory: path of the script required for a script inventory');
    checkRepoPath(inventory, 'inventory');
    if (input.repository_id == null) throw badRequest('repository_id: required for a script inventory');
  }
  if (type === 'url') {
    const problem = outgoingUrlProblem(inventory);
    if (problem) throw badRequest(`inventory: ${problem}`);
  }
  const syncCron = SOURCE_TYPES.includes(type) ? input.sync_cron?.trim() || null : null;
  if (syncCron) requireValidCron(syncCron, 'UTC');
  if (input.source_key_id != null) await assertProjectKey(tx, projectId, input.source_key_id, 'source_key_id');
  if (input.ssh_key_id == null) throw badRequest('ssh_key_id: required; choose the user credentials key');
  await assertProjectKey(tx, projectId, input.ssh_key_id, 'ssh_key_id');
  // any key of the project, as Semaphore: only a login_password key becomes (the console warns about others)
  if (input.become_key_id != null) await assertProjectKey(tx, projectId, input.become_key_id, 'become_key_id');
  // kept for every type, as Semaphore does; only a file inventory reads its repository
  if (input.repository_id != null) {
    const repo = await tx.selectFrom('repository').select('id').where('id', '=', input.repository_id).where('project_id', '=', projectId).executeTakeFirst();
    if (!repo) throw badRequest('repository_id: no such repository in this project');
  }
  const holderId = input.holder_id ?? input.template_id ?? null;
  if (holderId != null) {
    const template = await tx.selectFrom('template').select('id').where('id', '=', holderId).where('project_id', '=', projectId).executeTakeFirst();
    if (!template) throw badRequest('template_id: no such template in this project');
  }
  return {
    name: input.name, type, inventory, ssh_key_id: input.ssh_key_id, become_key_id: input.become_key_id ?? null,
    repository_id: input.repository_id ?? null, holder_id: holderId,
    source_key_id: SOURCE_TYPES.includes(type) ? input.source_key_id ?? null : null,
    sync_cron: syncCron,
  };
}

/** Validates and stores a new inventory. */
export async function createInventory(tx: Tx, actor: Actor, input: InventoryInput): Promise<InventoryRow> {
  const values = await validInventoryValues(tx, actor.projectId, input, 'Not supported inventory type');
  const row = await tx.insertInto('inventory').values({ project_id: actor.projectId, ...values }).returningAll().executeTakeFirstOrThrow();
  await recordInventoryEvent(tx, actor, row, 'created');
  return row;
}

/** Validates and updates an inventory. */
export async function updateInventory(tx: Tx, actor: Actor, id: number, input: InventoryInput): Promise<void> {
  await loadProjectRow(tx, 'inventory', actor.projectId, id);
  const values = await validInventoryValues(tx, actor.projectId, input, `unknown inventory type: ${input.type}`);
  await tx.updateTable('inventory').set(values).where('id', '=', id).execute();
  await recordInventoryEvent(tx, actor, { id, name: values.name }, 'updated');
}

/** Deletes an inventory no template uses. */
export async function deleteInventory(tx: Tx, actor: Actor, id: number): Promise<void> {
  const existing = await loadProjectRow(tx, 'inventory', actor.projectId, id);
  await assertNotInUse(tx, actor.projectId, 'inventory', id);
  await tx.deleteFrom('inventory').where('id', '=', id).execute();
  await recordInventoryEvent(tx, actor, existing, 'deleted');
}

function recordInventoryEvent(tx: Tx, actor: Actor, inv: Pick<InventoryRow, 'id' | 'name'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'inventory', objectId: inv.id, auditName: inv.name,
    description: `Inventory ${inv.name} ${verb}`,
  });
}
