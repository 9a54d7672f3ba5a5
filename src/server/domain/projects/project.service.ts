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
  task_retention_days?: number;
  task_retention_count?: number;
  output_retention_days?: number;
  executor_image?: string | null;
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
    task_retention_days: input.task_retention_days ?? 0,
    task_retention_count: input.task_retention_count ?? 0,
    output_retention_days: input.output_retention_days ?? 0,
    executor_image: input.executor_image?.trim() || null,
  }).returningAll().executeTakeFirstOrThrow();
  await tx.insertInto('project_user').values({ project_id: project.id, user_id: ownerId, role: 'owner', created: now() }).execute();
  await tx.insertInto('access_key').values({ project_id: project.id, name: 'None', type: 'none', secret: null, owner: '', environment_id: null, created: now() }).execute();
  await tx.insertInto('environment').values({ project_id: project.id, name: 'Empty', json: '{}', env: '{}', password: null }).execute();
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

/** Replaces the project's settings; `type` keeps its value when omitted. */
export async function updateProject(tx: Tx, project: ProjectRow, input: ProjectInput, actorId: number): Promise<void> {
  await tx.updateTable('project').set({
    name: input.name,
    alert: toFlag(input.alert),
    alert_chat: input.alert_chat ?? null,
    max_parallel_tasks: input.max_parallel_tasks ?? 0,
    type: input.type ?? project.type,
    // Semaphore's clients do not know the retention fields: an absent one keeps its value.
    task_retention_days: input.task_retention_days ?? project.task_retention_days,
    task_retention_count: input.task_retention_count ?? project.task_retention_count,
    output_retention_days: input.output_retention_days ?? project.output_retention_days,
    executor_image: input.executor_image !== undefined ? input.executor_image?.trim() || null : project.executor_image,
  }).where('id', '=', project.id).execute();
  await recordEvent(tx, { projectId: project.id, userId: actorId, objectType: 'project', objectId: project.id, description: 'Project updated' });
}

/**
 * Deletes the project and everything in it in one transaction, children before parents so
 * foreign keys without ON DELETE CASCADE never block (reference §9.3); tables added later cascade
 * from `project`. Returns the ids of its repositories, whose cached clones the caller removes.
 */
export async function deleteProject(tx: Tx, project: ProjectRow, actorId: number): Promise<{ repositoryIds: number[] }> {
  const id = project.id;
  const repositories = await tx.selectFrom('repository').select('id').where('project_id', '=', id).execute();
  await tx.deleteFrom('task').where('project_id', '=', id).execute();
  await tx.deleteFrom('integration').where('project_id', '=', id).execute();
  await tx.deleteFrom('schedule').where('project_id', '=', id).execute();
  await tx.updateTable('template').set({ build_template_id: null }).where('project_id', '=', id).execute();
  await tx.deleteFrom('template').where('project_id', '=', id).execute();
  await tx.deleteFrom('project_user').where('project_id', '=', id).execute();
  await tx.deleteFrom('inventory').where('project_id', '=', id).execute();
  await tx.deleteFrom('repository').where('project_id', '=', id).execute();
  await tx.deleteFrom('access_key').where('project_id', '=', id).execute();
  await tx.deleteFrom('project').where('id', '=', id).execute();
  // the project's own events went with it; this one outlives it, naming the project by id only
  await recordEvent(tx, { projectId: null, userId: actorId, objectType: 'project', objectId: id, description: `Project ID ${id} deleted` });
  return { repositoryIds: repositories.map((r) => r.id) };
}
