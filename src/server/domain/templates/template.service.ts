import type { Db, Tx } from '../../db/database.ts';
import type { TemplateRow } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Actor } from '../project-resource.ts';
import { TERRAFORM_APPS, templateRowToTemplate, type Template } from './template.ts';
import { summariseTemplateTasks } from './template-tasks.ts';
import type { TemplateValues } from './template.validation.ts';
import type { VaultValues } from './vaults.validation.ts';
import { groupsOf, readTemplateEnvironmentIds, writeTemplateEnvironmentIds } from '../environments/environment-list.ts';
import { readTemplateSshKeyIds, writeTemplateSshKeyIds } from './template-ssh-keys.ts';
import { readTemplateLocks } from '../locks/template-locks.ts';
import { templateAlertChannelIds } from '../alert-channels/alert-channel.service.ts';
import { readAllowedInventories } from './allowed-inventories.ts';
import { scopeIds, type TemplateScope } from './template-visibility.ts';
import { enqueueWebhookEvent } from '../event-webhooks/event-webhook.service.ts';


/** Loads a template of the project or throws 404. */
export async function findTemplate(db: Db | Tx, projectId: number, id: number): Promise<TemplateRow> {
  const row = await db.selectFrom('template').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Templates as the API shows them, with vaults, latest task and task count. */
export async function presentTemplates(db: Db | Tx, rows: TemplateRow[]): Promise<Template[]> {
  const ids = rows.map((r) => r.id);
  const vaults = ids.length ? await db.selectFrom('template_vault').selectAll().where('template_id', 'in', ids).orderBy('id').execute() : [];
  const tasks = await summariseTemplateTasks(db, ids);
  const groups = await readTemplateEnvironmentIds(db, ids);
  const sshKeys = await readTemplateSshKeyIds(db, ids);
  const alertChannels = await templateAlertChannelIds(db, ids);
  const locks = await readTemplateLocks(db, ids);
  const allowedInventories = await readAllowedInventories(db, ids);
  return rows.map((row) => templateRowToTemplate(row, {
    locks: locks.get(row.id) ?? [],
    environmentIds: groupsOf(groups, row),
    sshKeyIds: sshKeys.get(row.id) ?? [],
    alertChannelIds: alertChannels.get(row.id) ?? [],
    allowedInventories: allowedInventories.get(row.id) ?? [],
    vaults: vaults.filter((v) => v.template_id === row.id),
    lastTask: tasks.get(row.id)?.lastTask ?? null,
    taskCount: tasks.get(row.id)?.taskCount ?? 0,
  }));
}

const SORTABLE = new Set(['name', 'playbook', 'app', 'type', 'id']);

/** Templates of a project (those in `scope`); `app` and `viewId` narrow; `sort`/`order` as in Semaphore (default name). */
export async function listTemplates(db: Db | Tx, projectId: number, options: { app?: string; viewId?: number; sort?: string; order?: string; scope?: TemplateScope } = {}): Promise<Template[]> {
  let query = db.selectFrom('template').selectAll().where('project_id', '=', projectId);
  if (options.scope) query = query.where('id', 'in', scopeIds(options.scope));
  if (options.app) query = query.where('app', '=', options.app);
  if (options.viewId !== undefined) query = query.where('view_id', '=', options.viewId);
  const column = SORTABLE.has(options.sort ?? '') ? options.sort as 'name' : 'name';
  const rows = await query.orderBy(column, options.order === 'desc' ? 'desc' : 'asc').orderBy('id').execute();
  return presentTemplates(db, rows);
}

/**
 * Inserts a validated template, its vaults and, for terraform/tofu without an inventory, the
 * default workspace inventory "<name> - default" held by the template.
 */
export async function createTemplate(
  tx: Tx, actor: Actor, values: TemplateValues, vaults: VaultValues[], environmentIds = values.environment_id ? [values.environment_id] : [], sshKeyIds: number[] = [],
): Promise<TemplateRow> {
  let row = await tx.insertInto('template').values({ ...values, project_id: actor.projectId, created: now() }).returningAll().executeTakeFirstOrThrow();
  await replaceVaults(tx, row, vaults);
  await writeTemplateEnvironmentIds(tx, row.id, environmentIds);
  await writeTemplateSshKeyIds(tx, row.id, sshKeyIds);
  if (TERRAFORM_APPS.has(row.app) && !row.inventory_id) {
    const workspace = await tx.insertInto('inventory').values({
      project_id: actor.projectId, name: `${row.name} - default`, type: row.app === 'tofu' ? 'tofu-workspace' : 'terraform-workspace',
      inventory: 'default', ssh_key_id: null, become_key_id: null, repository_id: null, holder_id: row.id,
    }).returningAll().executeTakeFirstOrThrow();
    row = await tx.updateTable('template').set({ inventory_id: workspace.id }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
  }
  if (TERRAFORM_APPS.has(row.app) && row.inventory_id) await attachWorkspaceRow(tx, row.id, row.inventory_id);
  await recordEvent(tx, { ...actor, objectType: 'template', objectId: row.id, description: `Template ID ${row.id} created` });
  await templateChanged(tx, actor, row, 'created');
  return row;
}

/** Writes validated values over a template; vaults, variable groups and extra SSH keys are replaced when the body carried them. */
export async function updateTemplate(
  tx: Tx, actor: Actor, current: TemplateRow, values: TemplateValues, vaults: VaultValues[] | undefined, environmentIds: number[] | undefined,
  sshKeyIds?: number[],
): Promise<void> {
  const row = await tx.updateTable('template').set(values).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
  if (vaults) await replaceVaults(tx, row, vaults);
  if (environmentIds) await writeTemplateEnvironmentIds(tx, row.id, environmentIds);
  if (sshKeyIds) await writeTemplateSshKeyIds(tx, row.id, sshKeyIds);
  if (TERRAFORM_APPS.has(row.app) && row.inventory_id) await attachWorkspaceRow(tx, row.id, row.inventory_id);
  await recordEvent(tx, { ...actor, objectType: 'template', objectId: row.id, description: `Template ID ${row.id} updated` });
  await templateChanged(tx, actor, row, 'updated');
}

/** Makes the template's vaults exactly `vaults`: known ids are updated in place, others inserted, the rest deleted. */
async function replaceVaults(tx: Tx, template: TemplateRow, vaults: VaultValues[]) {
  const existing = new Set((await tx.selectFrom('template_vault').select('id').where('template_id', '=', template.id).execute()).map((v) => v.id));
  const kept = vaults.filter((v) => v.id !== undefined && existing.has(v.id)).map((v) => v.id!);
  let removal = tx.deleteFrom('template_vault').where('template_id', '=', template.id);
  if (kept.length) removal = removal.where('id', 'not in', kept);
  await removal.execute();
  for (const { id, ...vault } of vaults) {
    if (id !== undefined && existing.has(id)) await tx.updateTable('template_vault').set(vault).where('id', '=', id).execute();
    else await tx.insertInto('template_vault').values({ ...vault, project_id: template.project_id, template_id: template.id }).execute();
  }
}

/** Sets only the description (inline edit on the template page). */
export async function updateTemplateDescription(tx: Tx, actor: Actor, template: TemplateRow, description: string): Promise<void> {
  await tx.updateTable('template').set({ description }).where('id', '=', template.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'template', objectId: template.id, description: `Template ID ${template.id} updated` });
  await templateChanged(tx, actor, template, 'updated');
}

/** What refers to a template: integrations that start it, deploy templates of its builds, workflows with a node running it. */
export async function findTemplateRefs(db: Db | Tx, projectId: number, templateId: number) {
  const integrations = await db.selectFrom('integration').select(['id', 'name']).where('project_id', '=', projectId).where('template_id', '=', templateId).orderBy('name').execute();
  const templates = await db.selectFrom('template').select(['id', 'name']).where('project_id', '=', projectId).where('build_template_id', '=', templateId).orderBy('name').execute();
  const workflows = await db.selectFrom('workflow').select(['workflow.id', 'workflow.name']).distinct().where('workflow.project_id', '=', projectId)
    .where((w) => w.exists(w.selectFrom('workflow_node').select('workflow_node.id').whereRef('workflow_node.workflow_id', '=', 'workflow.id').where('workflow_node.template_id', '=', templateId)))
    .orderBy('workflow.name').execute();
  const none: { id: number; name: string }[] = [];
  return { templates, inventories: none, repositories: none, schedules: none, integrations, workflows };
}

/**
 * Deletes a template with its tasks, schedules, vaults and the workspaces it holds; refused
 * (400, inUse) while integrations or deploy templates still refer to it.
 */
export async function deleteTemplate(tx: Tx, actor: Actor, template: TemplateRow): Promise<void> {
  const refs = await findTemplateRefs(tx, actor.projectId, template.id);
  if (refs.integrations.length || refs.templates.length || refs.workflows.length) {
    throw badRequest('Template is in use by one or more integrations, deploy templates or workflows', { inUse: true });
  }
  await tx.deleteFrom('template').where('id', '=', template.id).execute();
  const held = await tx.selectFrom('inventory').select('id').where('project_id', '=', actor.projectId).where('holder_id', '=', template.id).execute();
  for (const inv of held) {
    const used = await tx.selectFrom('template').select('id').where('inventory_id', '=', inv.id).executeTakeFirst();
    if (used) await tx.updateTable('inventory').set({ holder_id: null }).where('id', '=', inv.id).execute();
    else await tx.deleteFrom('inventory').where('id', '=', inv.id).execute();
  }
  await recordEvent(tx, { ...actor, objectType: 'template', objectId: template.id, description: `Template ID ${template.id} deleted` });
  await templateChanged(tx, actor, template, 'deleted');
}

/** Queues `template_changed` for the project's event webhooks, in the change's transaction. */
function templateChanged(tx: Tx, actor: Actor, template: Pick<TemplateRow, 'id' | 'name' | 'app'>, action: string): Promise<number> {
  return enqueueWebhookEvent(tx, actor.projectId, 'template_changed', { action, user_id: actor.userId, template: { id: template.id, name: template.name, app: template.app } });
}

async function attachWorkspaceRow(tx: Tx, templateId: number, inventoryId: number) {
  const exists = await tx.selectFrom('template_inventory').select('inventory_id').where('template_id', '=', templateId).where('inventory_id', '=', inventoryId).executeTakeFirst();
  if (!exists) await tx.insertInto('template_inventory').values({ template_id: templateId, inventory_id: inventoryId }).execute();
}

export type WorkspaceAction = 'set_default' | 'attach' | 'detach';

/**
 * Workspace actions of a terraform/tofu template: attach a workspace inventory of the project,
 * make an attached one the default, or detach one. The default cannot be detached.
 */
export async function changeWorkspace(tx: Tx, actor: Actor, template: TemplateRow, inventoryId: number, action: WorkspaceAction): Promise<void> {
  const inventory = await tx.selectFrom('inventory').selectAll().where('id', '=', inventoryId).where('project_id', '=', actor.projectId).executeTakeFirst();
  if (!inventory) throw notFound();
  if (!TERRAFORM_APPS.has(template.app)) throw badRequest('Only terraform and tofu templates have workspaces');
  if (inventory.type !== 'terraform-workspace' && inventory.type !== 'tofu-workspace') throw badRequest('The inventory is not a workspace');
  if (inventory.holder_id !== null && inventory.holder_id !== template.id) throw badRequest('The workspace belongs to another template');
  if (action === 'detach') {
    if (template.inventory_id === inventoryId) throw badRequest('The default workspace cannot be detached');
    await tx.deleteFrom('template_inventory').where('template_id', '=', template.id).where('inventory_id', '=', inventoryId).execute();
    await tx.updateTable('inventory').set({ holder_id: null }).where('id', '=', inventoryId).execute();
  } else {
    await attachWorkspaceRow(tx, template.id, inventoryId);
    await tx.updateTable('inventory').set({ holder_id: template.id }).where('id', '=', inventoryId).execute();
    if (action === 'set_default') await tx.updateTable('template').set({ inventory_id: inventoryId }).where('id', '=', template.id).execute();
  }
  await recordEvent(tx, { ...actor, objectType: 'template', objectId: template.id, description: `Template ID ${template.id} updated` });
  await templateChanged(tx, actor, template, 'updated');
}
