import { badRequest } from '../../../../http/errors.ts';
import { mayRunTemplate } from '../../../templates/template-visibility.ts';
import type { LaunchRule } from '../launch.ts';

/**
 * A person starts only a template they may see and, when it has grants, one granted to their
 * role or them with "run" (domain/templates/template-visibility.ts); any other is answered as
 * one that does not exist, before any other rule could tell it apart. Triggers nobody pressed
 * (schedules, webhooks) were set up by someone who may edit the project's resources.
 */
export const templateVisible: LaunchRule = {
  name: 'template visible',
  async check(launch) {
    const { user, permissions } = launch.starter;
    if (!user) return;
    const { db } = launch.deps;
    const projectId = launch.template.project_id;
    const member = await db.selectFrom('project_user').select('role').where('project_id', '=', projectId).where('user_id', '=', user.id).executeTakeFirst();
    const viewer = { projectId, userId: user.id, admin: user.admin, role: member?.role ?? '', permissions };
    if (!await mayRunTemplate(db, viewer, launch.template.id)) throw badRequest('template_id: no such template in this project');
  },
};
