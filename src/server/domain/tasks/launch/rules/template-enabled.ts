import { badRequest } from '../../../../http/errors.ts';
import type { LaunchRule } from '../launch.ts';

/** The refusal of a disabled template, as every path words it. */
export const disabledTemplate = (name: string) => badRequest(`Template "${name}" is disabled`);

/**
 * A disabled template starts nothing, whoever asks. Asked again inside the queuing
 * transaction, so a template disabled meanwhile is not started after all.
 */
export const templateEnabled: LaunchRule = {
  name: 'template enabled',
  check(launch) {
    if (launch.template.disabled) throw disabledTemplate(launch.template.name);
  },
  async admit(tx, launch) {
    const now = await tx.selectFrom('template').select(['name', 'disabled']).where('id', '=', launch.template.id).executeTakeFirst();
    if (!now) throw badRequest('template_id: no such template in this project');
    if (now.disabled) throw disabledTemplate(now.name);
  },
};
