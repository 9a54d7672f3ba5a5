import { badRequest } from '../../../../http/errors.ts';
import { Permission } from '../../../../access/permissions.ts';
import type { Db } from '../../../../db/database.ts';
import { roleBits } from '../../../roles/role.service.ts';
import { mayRunTemplate, type TemplateViewer } from '../../../templates/template-visibility.ts';
import type { LaunchRule } from '../launch.ts';

/**
 * A person starts only a template they may see and, when it has grants, one granted to their
 * role or them with "run" (domain/templates/template-visibility.ts); any other is answered as
 * one that does not exist, before any other rule could tell it apart. A trigger nobody pressed
 * (schedule, webhook) acts for its owner, the person who last saved it (as AWX runs a schedule
 * for its owner): it passes a template's grants only as the owner would, refused in the same
 * words. Only the grants count for it: a template without any starts as before, whatever
 * became of the owner. A trigger without an owner (saved before owners were kept, or its owner
 * deleted) acts for nobody, so a template with grants refuses it, saying how to mend it.
 */
export const templateVisible: LaunchRule = {
  name: 'template visible',
  async check(launch) {
    const { user, permissions, ownerId } = launch.starter;
    const { db } = launch.deps;
    const projectId = launch.template.project_id;
    const viewer = user
      ? { projectId, userId: user.id, admin: user.admin, role: await memberRole(db, projectId, user.id), permissions }
      : ownerId != null ? await ownerViewer(db, projectId, ownerId) : null;
    if (viewer && !await mayRunTemplate(db, viewer, launch.template.id)) throw badRequest('template_id: no such template in this project');
    // undefined: a start that acts for nobody by design (autorun); null: a trigger whose owner is unknown
    if (!user && ownerId === null && !await mayRunTemplate(db, nobody(projectId), launch.template.id)) throw unownedTrigger(launch.template.name);
  },
};

/** The refusal of a schedule or webhook without an owner for a template with grants, as every such path words it. */
export const unownedTrigger = (name: string) =>
  badRequest(`Template "${name}" runs only for those it is granted to, and this trigger has no owner: it must be saved again by someone who may run the template`);

/** A viewer named by no grant (of the template's own or its view's): passes only a template without any. */
const nobody = (projectId: number): TemplateViewer => ({ projectId, userId: 0, admin: false, role: '', permissions: Permission.ViewTemplates });

async function memberRole(db: Db, projectId: number, userId: number): Promise<string> {
  const member = await db.selectFrom('project_user').select('role').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return member?.role ?? '';
}

/** The owner as a viewer who sees every template but those whose grants leave them out. */
async function ownerViewer(db: Db, projectId: number, ownerId: number): Promise<TemplateViewer> {
  const owner = await db.selectFrom('user').select('admin').where('id', '=', ownerId).executeTakeFirst();
  const role = await memberRole(db, projectId, ownerId);
  const bits = role ? await roleBits(db, projectId, role) : 0;
  return { projectId, userId: ownerId, admin: owner?.admin ?? false, role, permissions: bits | Permission.ViewTemplates };
}
