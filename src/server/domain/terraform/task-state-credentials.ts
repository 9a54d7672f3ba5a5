import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { InventoryRow } from '../inventories/inventory.ts';
import { createTerraformAlias, stateAddress, WORKSPACE_TYPES } from './terraform-alias.service.ts';

const PURPOSE = 'terraform-state';

/**
 * Basic-auth credentials a task gets for its workspace's state: user `task-<id>`, and as the
 * password the task and workspace sealed with the server key. Nothing is stored; the backend
 * opens the password again and accepts it only while that task is active.
 */
export function taskStateCredentials(box: SecretBox, taskId: number, inventoryId: number): { user: string; password: string } {
  return { user: `task-${taskId}`, password: box.seal(`${PURPOSE}:${taskId}:${inventoryId}`) };
}

/** The task id the credentials were made for, when they are genuine and for this workspace. */
export function verifyTaskStateCredentials(box: SecretBox, credentials: { user: string; password: string }, inventoryId: number): number | null {
  const match = /^task-(\d{1,10})$/.exec(credentials.user);
  if (!match) return null;
  let plain: string;
  try {
    plain = box.open(credentials.password);
  } catch {
    return null;
  }
  return plain === `${PURPOSE}:${match[1]}:${inventoryId}` ? Number(match[1]) : null;
}

/**
 * `TF_HTTP_*` for a terraform/tofu task whose inventory is a workspace: the address of the
 * workspace's first alias (one is made when it has none) and the task's own credentials.
 * @example Object.assign(env, await stateBackendEnv(deps, task.id, details.inventory));
 */
export async function stateBackendEnv(deps: { db: Db; secrets: SecretBox; config: { web_host: string } }, task: { id: number; project_id: number }, inventory: Pick<InventoryRow, 'id' | 'type'> | null): Promise<Record<string, string>> {
  if (!inventory || !WORKSPACE_TYPES.includes(inventory.type)) return {};
  const { db } = deps;
  let alias = await db.selectFrom('terraform_alias').select('alias').where('inventory_id', '=', inventory.id).orderBy('id').limit(1).executeTakeFirst();
  if (!alias) {
    await db.transaction().execute((tx) => createTerraformAlias(tx, { projectId: task.project_id, userId: null }, inventory.id, null));
    alias = await db.selectFrom('terraform_alias').select('alias').where('inventory_id', '=', inventory.id).orderBy('id').limit(1).executeTakeFirstOrThrow();
  }
  const address = stateAddress(deps.config.web_host, alias.alias);
  const credentials = taskStateCredentials(deps.secrets, task.id, inventory.id);
  return {
    TF_HTTP_ADDRESS: address,
    TF_HTTP_LOCK_ADDRESS: address,
    TF_HTTP_UNLOCK_ADDRESS: address,
    TF_HTTP_LOCK_METHOD: 'LOCK',
    TF_HTTP_UNLOCK_METHOD: 'UNLOCK',
    TF_HTTP_USERNAME: credentials.user,
    TF_HTTP_PASSWORD: credentials.password,
  };
}
