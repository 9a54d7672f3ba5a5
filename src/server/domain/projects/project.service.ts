import type { Db, Tx } from '../../db/database.ts';
import type { ProjectRow } from '../../db/schema.ts';
import { now, toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';

export interface ProjectInput {
  name: string;
  alert?: boolean;
  alert_chat?: string | null;
  max_parallel_tasks?: number;
  type?: string;
}

/**
 * Creates a project owned by `ownerId` with the resources every project starts with: the key
 * "None" and the variable group "Empty" (reference §3.2). Runs in the caller's transaction.
 */
export async function createProject(tx: Tx, input: ProjectInput, ownerId: number): Promise<ProjectRow> {
  const project = await tx.insertInto('project').values({
    name: input.name,
    created: now(),
    alert: toFlag(input.alert),
    alert_chat: input.alert_chat ?? null,
    max_parallel_tasks: input.max_parallel_tasks ?? 0,
    type: input.type ?? '',
  }).returningAll().executeTakeFirstOrThrow();
  await tx.insertInto('project_user').values({ project_id: project.id, user_id: ownerId, role: 'owner', created: now() }).execute();
  await tx.insertInto('access_key').values({ project_id: project.id, name: 'None', type: 'none', secret: null, owner: '', environment_id: null, created: now() }).execute();
  await tx.insertInto('environment').values({ project_id: project.id, name: 'Empty', json: '{}', env: null, password: null }).execute();
  await recordEvent(tx, { projectId: project.id, userId: ownerId, objectType: 'project', objectId: project.id, description: 'Project created' });
  return project;
}

/** Projects the user can see: all for admins, their memberships otherwise. */
export function listProjectsFor(db: Db, user: { id: number; admin: number }): Promise<ProjectRow[]> {
  let query = db.selectFrom('project').selectAll('project').orderBy('project.name').orderBy('project.id');
  if (!user.admin) {
    query = query.innerJoin('project_user', 'project_user.project_id', 'project.id').where('project_user.user_id', '=', user.id);
  }
  return query.execute();
}
