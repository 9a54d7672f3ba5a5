import { badRequest } from '../../../../http/errors.ts';
import type { LaunchRule } from '../launch.ts';

/** The refusal of a deploy started without a build to deploy, in the launch dialog's words. */
export const BUILD_VERSION_REQUIRED = 'Build version is required';

/**
 * A deploy ships a build: it needs `build_task_id`, a successful task of its build template
 * (the dialog offers those; autorun passes the build that just succeeded; a re-run keeps the
 * one it deployed). Without one a deploy would run with no version and still end in success.
 * Semaphore's server does not ask; this is one of the refusals Signalbox adds (README).
 * Another template may carry a `build_task_id` of the project (kept as Semaphore keeps it).
 */
export const deployBuild: LaunchRule = {
  name: 'deploy build',
  async check(launch) {
    const { template, input, deps } = launch;
    const id = input.build_task_id ?? null;
    if (template.type !== 'deploy') {
      if (!id) return;
      const task = await deps.db.selectFrom('task').select('id').where('id', '=', id).where('project_id', '=', template.project_id).executeTakeFirst();
      if (!task) throw badRequest('build_task_id: no such task in this project');
      launch.task.buildTaskId = id;
      return;
    }
    if (!id) throw badRequest(BUILD_VERSION_REQUIRED);
    const build = await deps.db.selectFrom('task').innerJoin('template', 'template.id', 'task.template_id')
      .select(['task.status', 'task.template_id', 'template.name'])
      .where('task.id', '=', id).where('task.project_id', '=', template.project_id).executeTakeFirst();
    if (!build || build.template_id !== template.build_template_id || build.status !== 'success') {
      const buildTemplate = await deps.db.selectFrom('template').select('name').where('id', '=', template.build_template_id ?? 0).executeTakeFirst();
      throw badRequest(`build_task_id: task ${id} is not a successful build of "${buildTemplate?.name ?? 'its build template'}"`);
    }
    launch.task.buildTaskId = id;
  },
};
