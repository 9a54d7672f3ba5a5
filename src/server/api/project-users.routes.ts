import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { badRequest } from '../http/errors.ts';
import { idParam, readJson } from '../http/validation.ts';
import { assertAssignableRole } from '../domain/roles/role.service.ts';
import { callerBits } from './route-context.ts';
import { memberAddSchema, memberRoleSchema } from '../domain/projects/project-member.schema.ts';
import { addProjectMember, changeProjectMemberRole, listProjectMembers, removeProjectMember } from '../domain/projects/project-members.service.ts';

export { memberAddSchema, memberRoleSchema };

/** `/api/project/:project_id/users`: the project's team. Changes need ManageUsers (8). */
export const projectUsersRoutes = new Hono<AppEnv>();

projectUsersRoutes.get('/', async (c) => {
  const members = await listProjectMembers(c.var.deps.db, c.var.project.id, c.req.query('sort'), c.req.query('order'));
  return c.json(members);
});

projectUsersRoutes.post('/', async (c) => {
  const input = await readJson(c, memberAddSchema);
  await assertAssignableRole(c.var.deps.db, c.var.project.id, input.role, callerBits(c));
  await c.var.deps.db.transaction().execute((tx) => addProjectMember(tx, c.var.project.id, input.user_id, input.role, c.var.user.id));
  return c.body(null, 204);
});

projectUsersRoutes.put('/:user_id', async (c) => {
  const userId = idParam(c, 'user_id');
  const input = await readJson(c, memberRoleSchema);
  await assertAssignableRole(c.var.deps.db, c.var.project.id, input.role, callerBits(c));
  refuseOwnerActingOnSelf(c, userId, 'an owner cannot change their own role');
  await c.var.deps.db.transaction().execute((tx) => changeProjectMemberRole(tx, c.var.project.id, userId, input.role, c.var.user.id));
  return c.body(null, 204);
});

projectUsersRoutes.delete('/:user_id', async (c) => {
  const userId = idParam(c, 'user_id');
  refuseOwnerActingOnSelf(c, userId, 'an owner cannot remove themselves from the project');
  await c.var.deps.db.transaction().execute((tx) => removeProjectMember(tx, c.var.project.id, userId, c.var.user.id));
  return c.body(null, 204);
});

/** Reference §1.4: a non-admin owner may neither demote nor remove themself. */
function refuseOwnerActingOnSelf(c: Context<AppEnv>, targetId: number, message: string): void {
  if (targetId === c.var.user.id && c.var.role === 'owner' && !c.var.user.admin) throw badRequest(message);
}
