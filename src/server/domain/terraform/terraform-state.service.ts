import type { Db, Tx } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';

/** A state version as lists show it; `state` (the text) only when one version is read. */
export interface TerraformStateVersion {
  id: number;
  task_id: number | null;
  /** the status of the task that wrote it (null when written from outside Signalbox) */
  status: string | null;
  created: string;
  state?: string;
}

function versions(db: Db | Tx, projectId: number, inventoryId: number) {
  return db.selectFrom('terraform_state as s').leftJoin('task as t', 't.id', 's.task_id')
    .select(['s.id', 's.task_id', 't.status', 's.created'])
    .where('s.project_id', '=', projectId).where('s.inventory_id', '=', inventoryId);
}

/** Every version of a workspace's state, newest first, without the state text. */
export function listStateVersions(db: Db | Tx, projectId: number, inventoryId: number): Promise<TerraformStateVersion[]> {
  return versions(db, projectId, inventoryId).orderBy('s.id', 'desc').execute();
}

/** One version with its text; `latest` reads the newest. Missing: empty 404. */
export async function readStateVersion(db: Db | Tx, projectId: number, inventoryId: number, stateId: number | 'latest'): Promise<TerraformStateVersion> {
  let query = versions(db, projectId, inventoryId).select('s.state');
  query = stateId === 'latest' ? query.orderBy('s.id', 'desc').limit(1) : query.where('s.id', '=', stateId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function deleteStateVersion(db: Db | Tx, projectId: number, inventoryId: number, stateId: number): Promise<void> {
  const result = await db.deleteFrom('terraform_state').where('id', '=', stateId)
    .where('project_id', '=', projectId).where('inventory_id', '=', inventoryId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound();
}
