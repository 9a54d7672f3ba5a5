import type { Db, Tx } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { PROJECT_ROLES, ROLE_PERMISSIONS, effectivePermissions, hasPermission, isBuiltInRole } from '../../access/permissions.ts';
import { recordEvent } from '../events/event.repository.ts';
import { assertBodyMatchesUrl, type Actor } from '../project-resource.ts';
import { dropRoleGrants } from './role-grants.ts';
import { slugOf, type Role, type RoleInput, type RoleRow } from './role.ts';
import { listServerRoles, serverRoleBits } from './server-role.service.ts';

export async function findRole(db: Db | Tx, projectId: number, id: number): Promise<RoleRow> {
  const row = await db.selectFrom('project_role').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Semaphore's four roles, then the project's own by name, then the server's (no id here: an admin edits them under /api/roles). */
export async function listRoles(db: Db | Tx, projectId: number): Promise<Role[]> {
  const rows = await db.selectFrom('project_role').selectAll().where('project_id', '=', projectId).orderBy('name').orderBy('id').execute();
  return [
    ...PROJECT_ROLES.map((slug) => ({ id: null, slug, name: slug, permissions: ROLE_PERMISSIONS[slug], builtin: true, server: false })),
    ...rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, permissions: r.permissions, builtin: false, server: false })),
    ...(await listServerRoles(db)).map((r) => ({ id: null, slug: r.slug, name: r.name, permissions: r.permissions, builtin: false, server: true })),
  ];
}

/** Whether members of the project may hold `role`: built in, the project's own or the server's. */
export async function roleExists(db: Db | Tx, projectId: number, role: string): Promise<boolean> {
  if (isBuiltInRole(role)) return true;
  const own = await db.selectFrom('project_role').select('id').where('project_id', '=', projectId).where('slug', '=', role).executeTakeFirst();
  return Boolean(own) || (await serverRoleBits(db, role)) !== undefined;
}

/** How people read a role: a built-in one by its slug (as Semaphore words it), a custom one (the project's or the server's) by its name. */
export async function roleDisplayName(db: Db | Tx, projectId: number, role: string): Promise<string> {
  if (isBuiltInRole(role)) return role;
  const own = await db.selectFrom('project_role').select('name').where('project_id', '=', projectId).where('slug', '=', role).executeTakeFirst();
  const server = own ? undefined : await db.selectFrom('server_role').select('name').where('slug', '=', role).executeTakeFirst();
  return own?.name ?? server?.name ?? role;
}

/**
 * The bits a member with `role` reports (`/role`): a built-in role's Semaphore value, a custom
 * role's own bits, 0 for a role that no longer exists.
 */
export async function declaredBits(db: Db | Tx, projectId: number, role: string): Promise<number> {
  if (isBuiltInRole(role)) return ROLE_PERMISSIONS[role];
  const row = await db.selectFrom('project_role').select('permissions').where('project_id', '=', projectId).where('slug', '=', role).executeTakeFirst();
  return row?.permissions ?? (await serverRoleBits(db, role)) ?? 0;
}

/** The bits a member with `role` acts with (access/permissions.ts effectivePermissions). */
export async function roleBits(db: Db | Tx, projectId: number, role: string): Promise<number> {
  return effectivePermissions(await declaredBits(db, projectId, role), isBuiltInRole(role));
}

/**
 * Refuses (400) a role the project does not have, and one holding bits the caller lacks: who
 * manages users hands out at most their own rights. Admins (`callerBits` null) give any role.
 */
export async function assertAssignableRole(db: Db | Tx, projectId: number, role: string, callerBits: number | null): Promise<void> {
  const roles = await listRoles(db, projectId);
  const found = roles.find((r) => r.slug === role);
  if (!found) throw badRequest(`role: must be one of ${roles.map((r) => r.slug).join(', ')}`);
  if (callerBits !== null && !hasPermission(callerBits, effectivePermissions(found.permissions, found.builtin))) {
    throw badRequest(`role: ${role} holds rights you do not have`);
  }
}

export async function createRole(tx: Tx, actor: Actor, input: RoleInput): Promise<RoleRow> {
  assertBodyMatchesUrl(input, actor.projectId);
  if (!input.name) throw badRequest('name: required');
  const slug = input.slug ?? slugOf(input.name);
  if (!slug) throw badRequest('slug: required when the name holds no letters');
  if (isBuiltInRole(slug)) throw badRequest(`slug: ${slug} is a built-in role`);
  const taken = await tx.selectFrom('project_role').select('id').where('project_id', '=', actor.projectId).where('slug', '=', slug).executeTakeFirst();
  if (taken) throw badRequest(`slug: role ${taken.id} already has the slug "${slug}" in this project`);
  if ((await serverRoleBits(tx, slug)) !== undefined) throw badRequest(`slug: "${slug}" names a server role`);
  const row = await tx.insertInto('project_role').values({
    project_id: actor.projectId, slug, name: input.name, permissions: input.permissions ?? 0, created: now(),
  }).returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, objectType: 'role', objectId: row.id, description: `Role ${row.name} created` });
  return row;
}

/** Changes a role's name and bits; its slug stays, so its members keep it. */
export async function updateRole(tx: Tx, actor: Actor, current: RoleRow, input: RoleInput): Promise<void> {
  assertBodyMatchesUrl(input, actor.projectId, current.id);
  if (input.slug !== undefined && input.slug !== current.slug) throw badRequest('slug: cannot change once made (members hold it)');
  const name = input.name ?? current.name;
  await tx.updateTable('project_role').set({ name, permissions: input.permissions ?? current.permissions }).where('id', '=', current.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'role', objectId: current.id, description: `Role ${name} updated` });
}

/** A role members or open invites still hold is kept: give them another role first. Its template grants go with it. */
export async function deleteRole(tx: Tx, actor: Actor, role: RoleRow): Promise<void> {
  const member = await tx.selectFrom('project_user').select('user_id').where('project_id', '=', role.project_id).where('role', '=', role.slug).executeTakeFirst();
  if (member) throw badRequest(`Role ${role.name} is held by user ${member.user_id}; give them another role first`);
  const invite = await tx.selectFrom('project_invite').select('id').where('project_id', '=', role.project_id).where('role', '=', role.slug)
    .where('status', '=', 'pending').executeTakeFirst();
  if (invite) throw badRequest(`Role ${role.name} is offered by invite ${invite.id}; withdraw it first`);
  await tx.deleteFrom('project_role').where('id', '=', role.id).execute();
  // a role made later with the same slug starts without this one's template grants
  await dropRoleGrants(tx, role.project_id, role.slug);
  await recordEvent(tx, { ...actor, objectType: 'role', objectId: role.id, description: `Role ${role.name} deleted` });
}

