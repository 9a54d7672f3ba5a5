import { badRequest } from '../../../../http/errors.ts';
import { seesTemplate, visibleTemplates } from '../../../../auth/template-visibility.ts';
import type { LaunchRule } from '../launch.ts';

/**
 * A person starts only a template they may see (auth/template-visibility.ts); one out of their
 * sight is answered as one that does not exist, before any other rule could tell it apart.
 * Triggers nobody pressed (schedules, webhooks) were set up by someone who could see it.
 */
export const templateVisible: LaunchRule = {
  name: 'template visible',
  check(launch) {
    const { user, permissions } = launch.starter;
    if (user && !seesTemplate(visibleTemplates({ admin: user.admin, permissions }), launch.template.id)) {
      throw badRequest('template_id: no such template in this project');
    }
  },
};
