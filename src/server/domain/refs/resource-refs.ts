import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';

export type RefKind = 'key' | 'repository' | 'inventory' | 'environment';

interface Ref { id: number; name: string }

/** What `GET .../{id}/refs` answers: the objects that would break if the resource went away. */
export interface ResourceRefs {
  templates: Ref[];
  inventories: Ref[];
  repositories: Ref[];
  schedules: Ref[];
  integrations: Ref[];
}

const IN_USE_LABEL: Record<RefKind, string> = {
  key: 'Access Key',
  repository: 'Repository',
  inventory: 'Inventory',
  environment: 'Environment',
};

/**
 * Lists every template, inventory, repository, schedule and integration of the project that
 * points at the resource (directly, through a vault, an extra SSH key, a registry key, a workspace link or a become key).
 * @example const refs = await findResourceRefs(db, projectId, 'key', keyId);
 */
export async function findResourceRefs(db: Db | Tx, projectId: number, kind: RefKind, id: number): Promise<ResourceRefs> {
  const refs: ResourceRefs = { templates: [], inventories: [], repositories: [], schedules: [], integrations: [] };
  const templates = db.selectFrom('template').select(['template.id', 'template.name']).where('template.project_id', '=', projectId);
  if (kind === 'key') {
    refs.templates = await templates.where((eb) => eb.or([
      eb('template.id', 'in', db.selectFrom('template_vault').select('template_id').where('vault_key_id', '=', id)),
      eb('template.id', 'in', db.selectFrom('template_ssh_key').select('template_id').where('ssh_key_id', '=', id)),
      eb('template.executor_registry_key_id', '=', id),
    ])).orderBy('template.id').execute();
    refs.inventories = await db.selectFrom('inventory').select(['id', 'name']).where('project_id', '=', projectId)
      .where((eb) => eb.or([eb('ssh_key_id', '=', id), eb('become_key_id', '=', id)])).orderBy('id').execute();
    refs.repositories = await db.selectFrom('repository').select(['id', 'name']).where('project_id', '=', projectId)
      .where('ssh_key_id', '=', id).orderBy('id').execute();
    refs.integrations = await db.selectFrom('integration').select(['id', 'name']).where('project_id', '=', projectId)
      .where('auth_secret_id', '=', id).orderBy('id').execute();
  } else if (kind === 'repository') {
    refs.templates = await templates.where('repository_id', '=', id).orderBy('template.id').execute();
    refs.inventories = await db.selectFrom('inventory').select(['id', 'name']).where('project_id', '=', projectId)
      .where('repository_id', '=', id).orderBy('id').execute();
    refs.schedules = await db.selectFrom('schedule').select(['id', 'name']).where('project_id', '=', projectId)
      .where('repository_id', '=', id).orderBy('id').execute();
  } else if (kind === 'inventory') {
    refs.templates = await templates.where((eb) => eb.or([
      eb('template.inventory_id', '=', id),
      eb('template.id', 'in', db.selectFrom('template_inventory').select('template_id').where('inventory_id', '=', id)),
      eb('template.id', 'in', db.selectFrom('template_allowed_inventory').select('template_id').where('inventory_id', '=', id)),
    ])).orderBy('template.id').execute();
  } else {
    refs.templates = await templates.where((eb) => eb.or([
      eb('template.environment_id', '=', id),
      eb('template.id', 'in', db.selectFrom('template_environment').select('template_id').where('environment_id', '=', id)),
    ])).orderBy('template.id').execute();
  }
  return refs;
}

/** True when any list of the refs is non-empty. */
export function hasRefs(refs: ResourceRefs): boolean {
  return Object.values(refs).some((list) => list.length > 0);
}

/**
 * Refuses to delete a resource something still points at: 400 with `inUse: true`, as Semaphore.
 * Call inside the deleting transaction, before the delete.
 * @example await assertNotInUse(tx, projectId, 'inventory', id);
 */
export async function assertNotInUse(db: Db | Tx, projectId: number, kind: RefKind, id: number): Promise<void> {
  if (hasRefs(await findResourceRefs(db, projectId, kind, id))) {
    throw badRequest(`${IN_USE_LABEL[kind]} is in use by one or more templates`, { inUse: true });
  }
}
