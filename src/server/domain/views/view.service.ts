import type { Db, Tx } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { auditNothingChanged } from '../audit/audit-context.ts';
import { writeAudit } from '../audit/audit.writer.ts';
import { INT32_MAX } from '../shared/project-refs.ts';
import type { Actor } from '../project-resource.ts';
import type { ViewInput, ViewRow } from './view.ts';

export async function findView(db: Db | Tx, projectId: number, id: number): Promise<ViewRow> {
  const row = await db.selectFrom('view').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export function listViews(db: Db | Tx, projectId: number): Promise<ViewRow[]> {
  return db.selectFrom('view').selectAll().where('project_id', '=', projectId).orderBy('position').orderBy('id').execute();
}

function viewValues(input: ViewInput, current?: ViewRow) {
  const title = (input.title ?? current?.title ?? '').trim();
  if (!title) throw badRequest('View title is required');
  return {
    title,
    position: input.position ?? current?.position ?? 0,
    hidden: input.hidden !== undefined ? toFlag(input.hidden) : current?.hidden ?? 0,
    type: input.type ?? current?.type ?? '',
    sort_column: input.sort_column !== undefined ? input.sort_column : current?.sort_column ?? null,
    sort_reverse: input.sort_reverse !== undefined ? toFlag(input.sort_reverse) : current?.sort_reverse ?? 0,
  };
}

/** Creates a view; "View <title> created" goes to the activity log. */
export async function createView(tx: Tx, actor: Actor, input: ViewInput): Promise<ViewRow> {
  const row = await tx.insertInto('view').values({ ...viewValues(input), project_id: actor.projectId }).returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, objectType: 'view', objectId: row.id, description: `View ${row.title} created` });
  return row;
}

export async function updateView(tx: Tx, actor: Actor, current: ViewRow, input: ViewInput): Promise<void> {
  if (input.id !== undefined && input.id !== current.id) throw badRequest('View ID in body and URL must be the same');
  if (input.project_id !== undefined && input.project_id !== actor.projectId) throw badRequest('Project ID in body and URL must be the same');
  const values = viewValues(input, current);
  await tx.updateTable('view').set(values).where('id', '=', current.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'view', objectId: current.id, description: `View ${values.title} updated` });
}

/** Deletes a view; its templates simply leave the view. */
export async function deleteView(tx: Tx, actor: Actor, view: ViewRow): Promise<void> {
  await tx.updateTable('template').set({ view_id: null }).where('view_id', '=', view.id).execute();
  await tx.deleteFrom('view').where('id', '=', view.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'view', objectId: view.id, description: `View ${view.title} deleted` });
}

/** Sets many positions at once; every id must be a view of the project, else nothing changes. */
export async function setViewPositions(tx: Tx, actor: Actor, positions: Record<string, number>): Promise<void> {
  const ids = Object.keys(positions).map(Number);
  if (ids.length === 0) return auditNothingChanged();
  const outOfRange = ids.find((id) => id > INT32_MAX);
  if (outOfRange !== undefined) throw badRequest(`${outOfRange}: no view ${outOfRange} in this project`);
  const found = await tx.selectFrom('view').select('id').where('project_id', '=', actor.projectId).where('id', 'in', ids).execute();
  const missing = ids.find((id) => !found.some((f) => f.id === id));
  if (missing !== undefined) throw badRequest(`${missing}: no view ${missing} in this project`);
  for (const id of ids) await tx.updateTable('view').set({ position: positions[String(id)]! }).where('id', '=', id).execute();
  await writeAudit(tx, { objectType: 'view', fields: ['position'], description: `Positions of ${ids.length} views changed` });
}
