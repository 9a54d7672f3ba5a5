import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { ALL_PERMISSIONS, isBuiltInRole } from '../../access/permissions.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { RestoreContext } from './restore-context.ts';
import { replaceGrants, type GrantKind } from '../templates/template-grants.ts';

/**
 * Custom roles in a backup (`roles`, Signalbox's section, issue 52): slug, name and bits. Members
 * do not travel in backups, so the restored roles wait for the new project's team.
 */
export const backupRoleSchema = z.looseObject({ slug: z.string(), name: z.string(), permissions: z.number().int() });
type BackupRole = z.infer<typeof backupRoleSchema>;

/** A template's or view's grant to a role in a backup (issue 52): grants to members stay behind with them. */
export const backupGrantSchema = z.looseObject({ role: z.string(), run: z.boolean().optional() });
type BackupGrant = z.infer<typeof backupGrantSchema>;

const SLUG = /^[a-z][a-z0-9_]{0,39}$/;

/** The project's custom roles by slug. */
export async function exportRoles(db: Db, projectId: number): Promise<BackupRole[]> {
  const rows = await db.selectFrom('project_role').select(['slug', 'name', 'permissions']).where('project_id', '=', projectId).orderBy('slug').execute();
  return rows.map((r) => ({ slug: r.slug, name: r.name, permissions: r.permissions }));
}

/** Before anything is written: each slug well formed, not built in, once; bits known; a name. */
export function verifyRoles(list: BackupRole[] | null | undefined): void {
  const seen = new Set<string>();
  for (const [i, role] of (list ?? []).entries()) {
    if (!SLUG.test(role.slug) || isBuiltInRole(role.slug)) throw badRequest(`roles[${i}]: slug "${role.slug}" cannot name a custom role`);
    if (seen.has(role.slug)) throw badRequest(`roles[${i}]: slug "${role.slug}" appears twice`);
    seen.add(role.slug);
    if (!role.name.trim() || role.name.length > 255) throw badRequest(`roles[${i}]: name must be 1 to 255 characters`);
    if (role.permissions < 0 || (role.permissions & ~ALL_PERMISSIONS) !== 0) throw badRequest(`roles[${i}]: only the bits in ${ALL_PERMISSIONS} are known`);
  }
}

/**
 * Each template's (or view's) grants to roles, by id (those granting none are absent). Grants to
 * members stay behind with the members; the directory's are all to members and come back at the next sign-in.
 */
export async function exportGrants(db: Db, kind: GrantKind, ids: number[]): Promise<Map<number, BackupGrant[]>> {
  const out = new Map<number, BackupGrant[]>();
  if (!ids.length) return out;
  const rows = kind === 'template'
    ? await db.selectFrom('template_grant').select(['template_id as owner', 'role', 'can_run']).where('template_id', 'in', ids).where('directory', '=', 0).where('role', 'is not', null).execute()
    : await db.selectFrom('view_grant').select(['view_id as owner', 'role', 'can_run']).where('view_id', 'in', ids).where('directory', '=', 0).where('role', 'is not', null).execute();
  rows.sort((a, b) => a.owner - b.owner || (a.role! < b.role! ? -1 : a.role! > b.role! ? 1 : 0));
  for (const r of rows) out.set(r.owner, [...(out.get(r.owner) ?? []), { role: r.role!, run: Boolean(r.can_run) }]);
  return out;
}

/** Before anything is written: each template's (or view's) grants name a built-in role, one the backup brings or a server role, once. */
export function verifyGrants(section: 'templates' | 'views', owners: { grants?: BackupGrant[] | null }[] | null | undefined, roles: BackupRole[] | null | undefined, serverRoles: ReadonlySet<string>): void {
  const known = new Set([...(roles ?? []).map((r) => r.slug), ...serverRoles]);
  for (const [i, t] of (owners ?? []).entries()) {
    const seen = new Set<string>();
    for (const [j, grant] of (t.grants ?? []).entries()) {
      if (!isBuiltInRole(grant.role) && !known.has(grant.role)) throw badRequest(`${section}[${i}].grants[${j}]: no role "${grant.role}" in the backup`);
      if (seen.has(grant.role)) throw badRequest(`${section}[${i}].grants[${j}]: role "${grant.role}" appears twice`);
      seen.add(grant.role);
    }
  }
}

type Grants = { grants?: BackupGrant[] | null };

/** After the roles: each restored template's and view's grants, mapped to the new one by name (a view's by title). */
export async function restoreGrants(ctx: RestoreContext, backup: { templates?: ({ name: string } & Grants)[] | null; views?: ({ title: string } & Grants)[] | null }): Promise<void> {
  const owners = [
    ...(backup.templates ?? []).map((t) => ({ kind: 'template' as const, id: ctx.ids.templates.get(t.name), grants: t.grants })),
    ...(backup.views ?? []).map((v) => ({ kind: 'view' as const, id: ctx.ids.views.get(v.title), grants: v.grants })),
  ];
  for (const { kind, id, grants } of owners) {
    if (!grants?.length || id === undefined) continue;
    await replaceGrants(ctx.tx, kind, id, grants.map((g) => ({ role: g.role, user_id: null, run: Boolean(g.run) })));
  }
}

/** The backup's roles as the new project's own; one whose slug is a server role's is that role here (grants keep naming it). */
export async function restoreRoles(ctx: RestoreContext, list: BackupRole[] | null | undefined, serverRoles: ReadonlySet<string>): Promise<void> {
  const { tx, actor } = ctx;
  for (const role of (list ?? []).filter((r) => !serverRoles.has(r.slug))) {
    const row = await tx.insertInto('project_role').values({
      project_id: actor.projectId, slug: role.slug, name: role.name.trim(), permissions: role.permissions, created: now(),
    }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, objectType: 'role', objectId: row.id, description: `Role ${row.name} created` });
    await ctx.pause();
  }
}
