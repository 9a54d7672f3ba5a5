import type { Selectable } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db, Tx } from '../db/database.ts';
import { badRequest, notFound } from '../http/errors.ts';

/** Tables whose rows belong to one project and carry an `id`. */
export type ProjectTable = 'access_key' | 'secret_storage' | 'repository' | 'host_config' | 'inventory' | 'environment' | 'template' | 'view' | 'schedule' | 'integration';

/**
 * Loads one row of a project-scoped table, or throws an empty 404 when it does not exist or
 * belongs to another project (other projects' ids must look like missing ones).
 * @example const row = await loadProjectRow(db, 'repository', projectId, id);
 */
export async function loadProjectRow<T extends ProjectTable>(db: Db | Tx, table: T, projectId: number, id: number): Promise<Selectable<Database[T]>> {
  // Kysely cannot narrow a union of table names; every listed table has id and project_id.
  const row = await (db as Db).selectFrom(table as 'repository').selectAll()
    .where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row as unknown as Selectable<Database[T]>;
}

/**
 * Body `project_id` (and on update `id`) must match the URL, as Semaphore requires; absent values pass.
 * @example assertBodyMatchesUrl(input, projectId, keyId);
 */
export function assertBodyMatchesUrl(input: { project_id?: number | null; id?: number | null }, projectId: number, id?: number): void {
  if (input.project_id != null && input.project_id !== projectId) throw badRequest('Project ID in body and URL must be the same');
  if (id !== undefined && input.id != null && input.id !== id) throw badRequest('ID in body and URL must be the same');
}

/** Who is acting on which project; services use it for events. */
export interface Actor { projectId: number; userId: number | null }
