import type { Deps } from '../../deps.ts';
import type { TaskRow } from '../../db/schema.ts';
import { enqueueTask } from '../../domain/tasks/enqueue-task.ts';

/**
 * After a SUCCESSFUL build, queues every deploy template of the project that names this build
 * template and has `autorun` (2.10 also did it after a stopped build; we do not).
 * @example await autorunDeploys(deps, finishedBuildTask); // ids of the queued deploy tasks
 */
export async function autorunDeploys(deps: Deps, build: TaskRow): Promise<number[]> {
  const templates = await deps.db.selectFrom('template').select('id').where('project_id', '=', build.project_id)
    .where('build_template_id', '=', build.template_id).where('autorun', '=', 1).where('disabled', '=', 0).where('type', '=', 'deploy').orderBy('id').execute();
  const queued: number[] = [];
  for (const t of templates) {
    const task = await enqueueTask(deps, { projectId: build.project_id, templateId: t.id, buildTaskId: build.id });
    queued.push(task.id);
  }
  return queued;
}
