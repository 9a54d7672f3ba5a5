import type { Tx } from '../../db/database.ts';

/** Drops a role's grants on the project's templates and views (`projectId` null: in every project). */
export async function dropRoleGrants(tx: Tx, projectId: number | null, role: string): Promise<void> {
  let templates = tx.deleteFrom('template_grant').where('role', '=', role);
  let views = tx.deleteFrom('view_grant').where('role', '=', role);
  if (projectId !== null) {
    templates = templates.where('template_id', 'in', tx.selectFrom('template').select('id').where('project_id', '=', projectId));
    views = views.where('view_id', 'in', tx.selectFrom('view').select('id').where('project_id', '=', projectId));
  }
  await templates.execute();
  await views.execute();
}
