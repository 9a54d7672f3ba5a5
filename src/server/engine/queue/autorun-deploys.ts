import type { Deps } from '../../deps.ts';
import type { TaskRow } from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';
import { launchTask } from '../../domain/tasks/launch/launch-task.ts';
import { appendTaskLine } from '../remote/remote-dispatch.ts';

/**
 * After a SUCCESSFUL build, starts every deploy template of the project that names this build
 * template and has `autorun` (2.10 also did it after a stopped build; we do not), through the
 * launch function with the build as the version to deploy. A start its rules refuse (a
 * required survey answer without a default, a disabled template) is said in the build's log.
 * @example await autorunDeploys(deps, finishedBuildTask); // ids of the queued deploy tasks
 */
export async function autorunDeploys(deps: Deps, build: TaskRow): Promise<number[]> {
  const templates = await deps.db.selectFrom('template').select(['id', 'name']).where('project_id', '=', build.project_id)
    .where('build_template_id', '=', build.template_id).where('autorun', '=', 1).where('type', '=', 'deploy').orderBy('id').execute();
  const queued: number[] = [];
  for (const t of templates) {
    try {
      const { task } = await launchTask(deps, { path: 'autorun', user: null, permissions: 0, valuesFrom: 'configuration' }, {
        projectId: build.project_id, input: { template_id: t.id, build_task_id: build.id },
      });
      queued.push(task.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      await appendTaskLine(deps, build, `Autorun: deploy template "${t.name}" not started: ${err.message}`);
    }
  }
  return queued;
}
