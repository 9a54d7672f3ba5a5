import { z } from 'zod';
import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { INT32_MAX } from '../../http/validation.ts';

export { INT32_MAX };

/** An id in a request body: a positive integer that fits the id columns. */
export const refId = z.number().int().positive().max(INT32_MAX, 'no such id');

/** A position or count in a request body that fits an integer column. */
export const smallCount = z.number().int().min(0, 'must be 0 or greater').max(INT32_MAX, 'too large');

/** Tables whose rows belong to one project through a `project_id` column. */
type ProjectTable = 'inventory' | 'repository' | 'environment' | 'view' | 'template' | 'access_key' | 'integration' | 'schedule';

/**
 * Checks that row `id` of `table` exists in the project; a reference to another project's row,
 * or to nothing, is a 400 naming the field (`inventory_id: no inventory 7 in this project`).
 * Key references only see key-store keys (not variable-group secrets).
 * @example await requireInProject(tx, 'inventory', input.inventory_id, projectId, 'inventory_id');
 */
export async function requireInProject(db: Db | Tx, table: ProjectTable, id: number, projectId: number, field: string) {
  const row = table === 'access_key'
    ? await db.selectFrom('access_key').select('id').where('id', '=', id).where('project_id', '=', projectId).where('owner', '=', '').executeTakeFirst()
    : await db.selectFrom(table).select('id').where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw badRequest(`${field}: no ${table.replace('_', ' ')} ${id} in this project`);
}

/** `requireInProject` for an optional reference: null/undefined passes. */
export async function requireOptionalInProject(db: Db | Tx, table: ProjectTable, id: number | null | undefined, projectId: number, field: string) {
  if (id !== null && id !== undefined) await requireInProject(db, table, id, projectId, field);
}

/** Parses a JSON column, falling back when the stored text is not valid JSON. */
export function parseJsonColumn<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
