import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { requireInProject } from '../shared/project-refs.ts';

/** More groups than anyone layers; keeps a request from naming thousands. */
export const MAX_VARIABLE_GROUPS = 20;

/**
 * Checks an ordered list of variable groups: each one of the project's, none twice.
 * @example await checkEnvironmentIds(tx, projectId, [3, 5], 'environment_ids');
 */
export async function checkEnvironmentIds(db: Db | Tx, projectId: number, ids: number[], field: string): Promise<number[]> {
  if (ids.length > MAX_VARIABLE_GROUPS) throw badRequest(`${field}: at most ${MAX_VARIABLE_GROUPS} variable groups`);
  const seen = new Set<number>();
  for (const id of ids) {
    if (seen.has(id)) throw badRequest(`${field}: variable group ${id} is listed twice`);
    seen.add(id);
    await requireInProject(db, 'environment', id, projectId, field);
  }
  return ids;
}

/** The stored groups of each template, in order; a template with none is absent from the map. */
export async function readTemplateEnvironmentIds(db: Db | Tx, templateIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!templateIds.length) return out;
  const rows = await db.selectFrom('template_environment').select(['template_id', 'environment_id'])
    .where('template_id', 'in', templateIds).orderBy('template_id').orderBy('position').execute();
  for (const row of rows) out.set(row.template_id, [...(out.get(row.template_id) ?? []), row.environment_id]);
  return out;
}

/** Makes a template's groups exactly `ids`, in that order. */
export async function writeTemplateEnvironmentIds(tx: Tx, templateId: number, ids: number[]): Promise<void> {
  await tx.deleteFrom('template_environment').where('template_id', '=', templateId).execute();
  for (const [position, environmentId] of ids.entries()) {
    await tx.insertInto('template_environment').values({ template_id: templateId, environment_id: environmentId, position }).execute();
  }
}

/** A template's groups from `readTemplateEnvironmentIds`: its list, or (rows written without one) its single group. */
export function groupsOf(listed: Map<number, number[]>, template: { id: number; environment_id: number | null }): number[] {
  return listed.get(template.id) ?? (template.environment_id ? [template.environment_id] : []);
}

/** The groups a template runs with, in order. */
export async function templateEnvironmentIds(db: Db | Tx, template: { id: number; environment_id: number | null }): Promise<number[]> {
  return groupsOf(await readTemplateEnvironmentIds(db, [template.id]), template);
}

/** A task's `environment_ids` column: the JSON array written at enqueue, or null for tasks from before. */
export function parseTaskEnvironmentIds(text: string | null | undefined): number[] | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : null;
  } catch {
    return null;
  }
}
