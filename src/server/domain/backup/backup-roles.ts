import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { ALL_PERMISSIONS, isBuiltInRole } from '../../access/permissions.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { RestoreContext } from './restore-context.ts';

/**
 * Custom roles in a backup (`roles`, Signalbox's section, issue 52): slug, name and bits. Members
 * do not travel in backups, so the restored roles wait for the new project's team.
 */
export const backupRoleSchema = z.looseObject({ slug: z.string(), name: z.string(), permissions: z.number().int() });
type BackupRole = z.infer<typeof backupRoleSchema>;

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

export async function restoreRoles(ctx: RestoreContext, list: BackupRole[] | null | undefined): Promise<void> {
  const { tx, actor } = ctx;
  for (const role of list ?? []) {
    const row = await tx.insertInto('project_role').values({
      project_id: actor.projectId, slug: role.slug, name: role.name.trim(), permissions: role.permissions, created: now(),
    }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, objectType: 'role', objectId: row.id, description: `Role ${row.name} created` });
    await ctx.pause();
  }
}
