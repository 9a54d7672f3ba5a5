import type { Db, Tx } from '../../db/database.ts';
import type { ServerRoleTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { isBuiltInRole } from '../../access/permissions.ts';
import { recordEvent } from '../events/event.repository.ts';
import { slugOf, type RoleInput } from './role.ts';
import { dropRoleGrants } from './role-grants.ts';

/**
 * Server-wide role templates (issue 52 item 2): an admin defines a role once and every
 * project's members may hold it by slug, no copy made. A slug names one role on the server:
 * never a built-in one, never a project's own.
 */
export type ServerRoleRow = Selectable<ServerRoleTable>;

/** A server role as `/api/roles` shows it. */
export interface ServerRole { id: number; slug: string; name: string; permissions: number }

export const shownServerRole = (r: ServerRoleRow): ServerRole => ({ id: r.id, slug: r.slug, name: r.name, permissions: r.permissions });

export async function listServerRoles(db: Db | Tx): Promise<ServerRole[]> {
  return (await db.selectFrom('server_role').selectAll().orderBy('name').orderBy('id').execute()).map(shownServerRole);
}

export async function findServerRole(db: Db | Tx, id: number): Promise<ServerRoleRow> {
  const row = await db.selectFrom('server_role').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** The bits of the server role `slug`, or undefined when there is none. */
export async function serverRoleBits(db: Db | Tx, slug: string): Promise<number | undefined> {
  return (await db.selectFrom('server_role').select('permissions').where('slug', '=', slug).executeTakeFirst())?.permissions;
}

export async function serverRoleSlugs(db: Db | Tx): Promise<Set<string>> {
  return new Set((await db.selectFrom('server_role').select('slug').execute()).map((r) => r.slug));
}

export async function createServerRole(tx: Tx, actorId: number, input: RoleInput): Promise<ServerRole> {
  if (!input.name) throw badRequest('name: required');
  const slug = input.slug ?? slugOf(input.name);
  if (!slug) throw badRequest('slug: required when the name holds no letters');
  if (isBuiltInRole(slug)) throw badRequest(`slug: ${slug} is a built-in role`);
  const taken = await tx.selectFrom('server_role').select('id').where('slug', '=', slug).executeTakeFirst();
  if (taken) throw badRequest(`slug: server role ${taken.id} already has the slug "${slug}"`);
  const project = await tx.selectFrom('project_role').select('project_id').where('slug', '=', slug).executeTakeFirst();
  if (project) throw badRequest(`slug: project ${project.project_id} has its own role "${slug}"`);
  const row = await tx.insertInto('server_role').values({ slug, name: input.name, permissions: input.permissions ?? 0, created: now() })
    .returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { projectId: null, userId: actorId, objectType: 'role', objectId: row.id, description: `Server role ${row.name} created` });
  return shownServerRole(row);
}

/** Changes name and bits; the slug stays (members in every project hold it). */
export async function updateServerRole(tx: Tx, actorId: number, current: ServerRoleRow, input: RoleInput): Promise<void> {
  if (input.id !== undefined && input.id !== current.id) throw badRequest('id: does not match the URL');
  if (input.slug !== undefined && input.slug !== current.slug) throw badRequest('slug: cannot change once made (members hold it)');
  const name = input.name ?? current.name;
  await tx.updateTable('server_role').set({ name, permissions: input.permissions ?? current.permissions }).where('id', '=', current.id).execute();
  await recordEvent(tx, { projectId: null, userId: actorId, objectType: 'role', objectId: current.id, description: `Server role ${name} updated` });
}

/** Kept while any project's member or open invite holds it; its grants in every project go with it. */
export async function deleteServerRole(tx: Tx, actorId: number, role: ServerRoleRow): Promise<void> {
  const member = await tx.selectFrom('project_user').select(['user_id', 'project_id']).where('role', '=', role.slug).executeTakeFirst();
  if (member) throw badRequest(`Role ${role.name} is held by user ${member.user_id} in project ${member.project_id}; give them another role first`);
  const invite = await tx.selectFrom('project_invite').select(['id', 'project_id']).where('role', '=', role.slug).where('status', '=', 'pending').executeTakeFirst();
  if (invite) throw badRequest(`Role ${role.name} is offered by invite ${invite.id} in project ${invite.project_id}; withdraw it first`);
  await tx.deleteFrom('server_role').where('id', '=', role.id).execute();
  await dropRoleGrants(tx, null, role.slug);
  await recordEvent(tx, { projectId: null, userId: actorId, objectType: 'role', objectId: role.id, description: `Server role ${role.name} deleted` });
}
