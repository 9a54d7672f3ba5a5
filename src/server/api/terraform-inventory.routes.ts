import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { actorOf } from './route-context.ts';
import {
  aliasInputSchema, createTerraformAlias, deleteTerraformAlias, findTerraformAlias, listTerraformAliases, loadWorkspace, setTerraformAliasKey,
} from '../domain/terraform/terraform-alias.service.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';
import { deleteStateVersion, listStateVersions, readStateVersion } from '../domain/terraform/terraform-state.service.ts';

/**
 * `/api/project/:project_id/inventory/:inventory_id/terraform`: the state backend aliases of a
 * workspace and its state versions. State text can hold secrets, so reading it needs the
 * right to manage resources, like changing aliases does.
 */
export const terraformInventoryRoutes = new Hono<AppEnv>();

async function workspaceId(c: Context<AppEnv>): Promise<number> {
  const inventory = await loadWorkspace(c.var.deps.db, c.var.project.id, idParam(c, 'inventory_id'));
  return inventory.id;
}

terraformInventoryRoutes.get('/aliases', async (c) => {
  return c.json(await listTerraformAliases(c.var.deps.db, c.var.deps.config.web_host, c.var.project.id, await workspaceId(c)));
});

terraformInventoryRoutes.post('/aliases', async (c) => {
  const inventoryId = await workspaceId(c);
  const input = await readJson(c, aliasInputSchema);
  const { db, config } = c.var.deps;
  const id = await db.transaction().execute((tx) => createTerraformAlias(tx, actorOf(c), inventoryId, input.auth_key_id ?? null));
  return c.json(await findTerraformAlias(db, config.web_host, c.var.project.id, inventoryId, id));
});

terraformInventoryRoutes.get('/aliases/:alias_id', async (c) => {
  return c.json(await findTerraformAlias(c.var.deps.db, c.var.deps.config.web_host, c.var.project.id, await workspaceId(c), idParam(c, 'alias_id')));
});

terraformInventoryRoutes.put('/aliases/:alias_id', async (c) => {
  const inventoryId = await workspaceId(c);
  const input = await readJson(c, aliasInputSchema);
  await c.var.deps.db.transaction().execute((tx) => setTerraformAliasKey(tx, actorOf(c), inventoryId, idParam(c, 'alias_id'), input.auth_key_id ?? null));
  return c.body(null, 204);
});

terraformInventoryRoutes.delete('/aliases/:alias_id', async (c) => {
  const inventoryId = await workspaceId(c);
  await c.var.deps.db.transaction().execute((tx) => deleteTerraformAlias(tx, actorOf(c), inventoryId, idParam(c, 'alias_id')));
  return c.body(null, 204);
});

terraformInventoryRoutes.get('/states', async (c) => {
  return c.json(await listStateVersions(c.var.deps.db, c.var.project.id, await workspaceId(c)));
});

terraformInventoryRoutes.get('/states/latest', async (c) => {
  return c.json(await readStateVersion(c.var.deps.db, c.var.project.id, await workspaceId(c), 'latest'));
});

terraformInventoryRoutes.get('/states/:state_id', async (c) => {
  return c.json(await readStateVersion(c.var.deps.db, c.var.project.id, await workspaceId(c), idParam(c, 'state_id')));
});

terraformInventoryRoutes.delete('/states/:state_id', async (c) => {
  const inventoryId = await workspaceId(c);
  const stateId = idParam(c, 'state_id');
  await withAudit(c.var.deps.db, (tx) => deleteStateVersion(tx, c.var.project.id, inventoryId, stateId), () => ({ objectType: 'terraform_state', objectId: stateId }));
  return c.body(null, 204);
});
