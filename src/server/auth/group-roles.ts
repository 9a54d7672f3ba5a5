import type { Tx } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import type { GroupMapping } from '../config/auth-config.ts';
import { PROJECT_ROLES, isBuiltInRole } from '../access/permissions.ts';
import { roleBits, roleExists } from '../domain/roles/role.service.ts';
import { dropMemberGrants, replaceDirectoryGrants } from '../domain/templates/template-grants.ts';
import { now } from '../lib/time.ts';

/**
 * A directory group matches a mapping by its full name or DN, or by the value of its first DN
 * part (`cn=ops,ou=groups,dc=example` matches "ops"), case-insensitively.
 */
function groupMatches(group: string, wanted: string): boolean {
  const lower = group.toLowerCase();
  const firstPart = /^[^=,]+=([^,]+)/.exec(lower)?.[1];
  return lower === wanted.toLowerCase() || firstPart === wanted.toLowerCase();
}

/**
 * The strongest of the roles the project has: the one acting with the most permission bits,
 * Semaphore's order (owner first) between equals. A custom slug neither the project nor the
 * server has counts not.
 */
async function strongest(tx: Tx, projectId: number, roles: string[]): Promise<string | undefined> {
  let best: { role: string; bits: number; rank: number } | undefined;
  for (const role of new Set(roles)) {
    const builtIn = isBuiltInRole(role);
    if (!(await roleExists(tx, projectId, role))) continue;
    const bits = bitCount(await roleBits(tx, projectId, role));
    const rank = builtIn ? PROJECT_ROLES.indexOf(role) : PROJECT_ROLES.length;
    if (!best || bits > best.bits || (bits === best.bits && rank < best.rank)) best = { role, bits, rank };
  }
  return best?.role;
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest; rest &= rest - 1) count++;
  return count;
}

/**
 * Makes the user's admin flag and the memberships of every mapped project follow the groups the
 * directory reports now (roles and template or view grants): a mapped project the user is no
 * longer entitled to is left, an admin
 * flag no group grants any more is taken back. Projects no mapping names are not touched.
 */
export async function applyGroupMappings(tx: Tx, user: UserRow, groups: string[], mappings: GroupMapping[]): Promise<void> {
  const member = (mapping: GroupMapping) => groups.some((group) => groupMatches(group, mapping.group));
  const adminRules = mappings.filter((m) => m.admin !== undefined);
  if (adminRules.length) {
    const admin = adminRules.some((m) => m.admin && member(m)) ? 1 : 0;
    if (admin !== user.admin) await tx.updateTable('user').set({ admin }).where('id', '=', user.id).execute();
  }
  const projectIds = [...new Set(mappings.flatMap((m) => (m.project_id ? [m.project_id] : [])))];
  for (const projectId of projectIds) {
    const matched = mappings.filter((m) => m.project_id === projectId && member(m));
    const role = await strongest(tx, projectId, matched.map((m) => (m.role ?? m.custom_role)!));
    await setMembership(tx, projectId, user.id, role);
    // the grants follow the groups too: those of groups left go, those of groups joined come
    if (role) await replaceDirectoryGrants(tx, projectId, user.id, matched.flatMap((m) => m.grants ?? []));
  }
}

async function setMembership(tx: Tx, projectId: number, userId: number, role: string | undefined): Promise<void> {
  const membership = tx.selectFrom('project_user').select('role').where('project_id', '=', projectId).where('user_id', '=', userId);
  const current = await membership.executeTakeFirst();
  if (!role) {
    if (!current) return;
    await tx.deleteFrom('project_user').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
    await dropMemberGrants(tx, projectId, userId);
    return;
  }
  if (current?.role === role) return;
  if (current) {
    await tx.updateTable('project_user').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
    return;
  }
  const project = await tx.selectFrom('project').select('id').where('id', '=', projectId).executeTakeFirst();
  if (project) await tx.insertInto('project_user').values({ project_id: projectId, user_id: userId, role, created: now() }).execute();
}
