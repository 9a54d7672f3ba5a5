import { z } from 'zod';
import type { Db, Tx } from '../../db/database.ts';
import type { TemplateRow } from '../../db/schema.ts';
import type { DirectoryGrant } from '../../config/auth-config.ts';
import { badRequest } from '../../http/errors.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Actor } from '../project-resource.ts';
import { listRoles } from '../roles/role.service.ts';

/** A template with more grants than a person can read through is better served by a role. */
export const MAX_TEMPLATE_GRANTS = 200;

const grantSchema = z.object({
  role: z.string().min(1).max(100).optional().meta({ description: "a project role's slug (built-in or custom)" }),
  user_id: z.number().int().positive().optional().meta({ description: 'a member of the project' }),
  run: z.boolean().optional().meta({ description: 'may start the template too (default: only see it)' }),
});

/** `PUT …/templates/{id}/grants`: the whole list; an empty one opens the template to every member again. */
export const templateGrantsInputSchema = z.object({
  grants: z.array(grantSchema).max(MAX_TEMPLATE_GRANTS),
});
export type TemplateGrantsInput = z.infer<typeof templateGrantsInputSchema>;

/** One grant as the API shows it: a role or a user, and whether they may start the template. */
export interface TemplateGrant {
  role: string | null;
  user_id: number | null;
  run: boolean;
}

/** What grants are given on: one template, or a view (each template in it). */
export type GrantKind = 'template' | 'view';

/** The grants made by hand on a template or view (not the directory's), roles first (by slug), then users (by id). */
export async function readGrants(db: Db | Tx, kind: GrantKind, id: number): Promise<TemplateGrant[]> {
  const rows = kind === 'template'
    ? await db.selectFrom('template_grant').select(['role', 'user_id', 'can_run']).where('template_id', '=', id).where('directory', '=', 0).execute()
    : await db.selectFrom('view_grant').select(['role', 'user_id', 'can_run']).where('view_id', '=', id).where('directory', '=', 0).execute();
  return rows.map((r) => ({ role: r.role, user_id: r.user_id, run: Boolean(r.can_run) }))
    .sort((a, b) => (a.role === null ? 1 : 0) - (b.role === null ? 1 : 0) || (a.role ?? '').localeCompare(b.role ?? '') || (a.user_id ?? 0) - (b.user_id ?? 0));
}

export async function readTemplateGrants(db: Db | Tx, templateId: number): Promise<TemplateGrant[]> {
  return readGrants(db, 'template', templateId);
}

/** Checks each grant names one role of the project or one member, none twice; 400 otherwise. */
async function checkGrants(db: Db | Tx, projectId: number, grants: TemplateGrantsInput['grants']): Promise<TemplateGrant[]> {
  const roles = new Set((await listRoles(db, projectId)).map((r) => r.slug));
  const userIds = grants.flatMap((g) => (g.user_id === undefined ? [] : [g.user_id]));
  const members = new Set(userIds.length
    ? (await db.selectFrom('project_user').select('user_id').where('project_id', '=', projectId).where('user_id', 'in', userIds).execute()).map((r) => r.user_id)
    : []);
  const seen = new Set<string>();
  return grants.map((g, i) => {
    if ((g.role === undefined) === (g.user_id === undefined)) throw badRequest(`grants[${i}]: give either role or user_id`);
    if (g.role !== undefined && !roles.has(g.role)) throw badRequest(`grants[${i}].role: no role "${g.role}" in this project`);
    if (g.user_id !== undefined && !members.has(g.user_id)) throw badRequest(`grants[${i}].user_id: user ${g.user_id} is no member of this project`);
    const key = g.role !== undefined ? `role:${g.role}` : `user:${g.user_id}`;
    if (seen.has(key)) throw badRequest(`grants[${i}]: ${g.role !== undefined ? `role ${g.role}` : `user ${g.user_id}`} is listed twice`);
    seen.add(key);
    return { role: g.role ?? null, user_id: g.user_id ?? null, run: Boolean(g.run) };
  });
}

/** Makes a template's grants exactly `input.grants` (checked first, so a bad list writes nothing). */
export async function writeTemplateGrants(tx: Tx, actor: Actor, template: TemplateRow, input: TemplateGrantsInput): Promise<TemplateGrant[]> {
  const grants = await checkGrants(tx, template.project_id, input.grants);
  await replaceGrants(tx, 'template', template.id, grants);
  await recordEvent(tx, { ...actor, objectType: 'template', objectId: template.id, objectName: template.name, description: `Template ${template.name} grants changed` });
  return readGrants(tx, 'template', template.id);
}

/** Makes a view's grants exactly `input.grants`: each names every template the view holds, now and later. */
export async function writeViewGrants(tx: Tx, actor: Actor, view: { id: number; project_id: number; title: string }, input: TemplateGrantsInput): Promise<TemplateGrant[]> {
  const grants = await checkGrants(tx, view.project_id, input.grants);
  await replaceGrants(tx, 'view', view.id, grants);
  await recordEvent(tx, { ...actor, objectType: 'view', objectId: view.id, objectName: view.title, description: `View ${view.title} grants changed` });
  return readGrants(tx, 'view', view.id);
}

/** Replaces the hand-made grant rows of a template or view (restore writes them this way too); the directory's stay. */
export async function replaceGrants(tx: Tx, kind: GrantKind, id: number, grants: readonly TemplateGrant[], directory = false): Promise<void> {
  const flag = directory ? 1 : 0;
  if (kind === 'template') await tx.deleteFrom('template_grant').where('template_id', '=', id).where('directory', '=', flag).execute();
  else await tx.deleteFrom('view_grant').where('view_id', '=', id).where('directory', '=', flag).execute();
  await insertGrantRows(tx, kind, id, grants, flag);
}

async function insertGrantRows(tx: Tx, kind: GrantKind, id: number, grants: readonly TemplateGrant[], directory: number): Promise<void> {
  if (!grants.length) return;
  const values = grants.map((g) => ({ role: g.role, user_id: g.user_id, can_run: g.run ? 1 : 0, directory }));
  if (kind === 'template') await tx.insertInto('template_grant').values(values.map((v) => ({ ...v, template_id: id }))).execute();
  else await tx.insertInto('view_grant').values(values.map((v) => ({ ...v, view_id: id }))).execute();
}

/** Drops what a member was granted by name in the project's templates: a grant ends with the membership it was given to. */
export async function dropMemberGrants(tx: Tx, projectId: number, userId: number): Promise<void> {
  const templates = tx.selectFrom('template').select('id').where('project_id', '=', projectId);
  await tx.deleteFrom('template_grant').where('user_id', '=', userId).where('template_id', 'in', templates).execute();
  const views = tx.selectFrom('view').select('id').where('project_id', '=', projectId);
  await tx.deleteFrom('view_grant').where('user_id', '=', userId).where('view_id', 'in', views).execute();
}

/**
 * Makes the grants the directory gives a member in the project exactly `grants` (auth/group-roles.ts);
 * ids of templates or views outside the project are passed over, grants made by hand stay.
 */
export async function replaceDirectoryGrants(tx: Tx, projectId: number, userId: number, grants: readonly DirectoryGrant[]): Promise<void> {
  const templates = tx.selectFrom('template').select('id').where('project_id', '=', projectId);
  const views = tx.selectFrom('view').select('id').where('project_id', '=', projectId);
  await tx.deleteFrom('template_grant').where('user_id', '=', userId).where('directory', '=', 1).where('template_id', 'in', templates).execute();
  await tx.deleteFrom('view_grant').where('user_id', '=', userId).where('directory', '=', 1).where('view_id', 'in', views).execute();
  for (const kind of ['template', 'view'] as const) {
    const wanted = new Map<number, boolean>();
    for (const g of grants) {
      const id = kind === 'template' ? g.template_id : g.view_id;
      if (id !== undefined) wanted.set(id, Boolean(wanted.get(id)) || Boolean(g.run));
    }
    if (!wanted.size) continue;
    const inProject = kind === 'template'
      ? await templates.where('id', 'in', [...wanted.keys()]).execute()
      : await views.where('id', 'in', [...wanted.keys()]).execute();
    for (const { id } of inProject) await insertGrantRows(tx, kind, id, [{ role: null, user_id: userId, run: wanted.get(id)! }], 1);
  }
}

/** Who asks: a member by user id and role slug. */
export interface Grantee { userId: number; role: string }

/**
 * The project's templates that have grants, their own or their view's, split into those `who`
 * holds none of (hidden) and those `who` may see but not start (seeOnly). A grant on a view
 * counts as one on each template in it. Templates without any are in neither.
 */
export async function restrictedTemplates(db: Db | Tx, projectId: number, who: Grantee): Promise<{ hidden: Set<number>; seeOnly: Set<number> }> {
  const [own, viewed] = await Promise.all([
    db.selectFrom('template_grant').innerJoin('template', 'template.id', 'template_grant.template_id')
      .select(['template_grant.template_id', 'template_grant.role', 'template_grant.user_id', 'template_grant.can_run'])
      .where('template.project_id', '=', projectId).execute(),
    db.selectFrom('view_grant').innerJoin('template', 'template.view_id', 'view_grant.view_id')
      .select(['template.id as template_id', 'view_grant.role', 'view_grant.user_id', 'view_grant.can_run'])
      .where('template.project_id', '=', projectId).execute(),
  ]);
  const granted = new Map<number, boolean>();
  const restricted = new Set<number>();
  for (const r of [...own, ...viewed]) {
    restricted.add(r.template_id);
    if (r.role === who.role || r.user_id === who.userId) granted.set(r.template_id, Boolean(granted.get(r.template_id)) || Boolean(r.can_run));
  }
  const hidden = new Set([...restricted].filter((id) => !granted.has(id)));
  const seeOnly = new Set([...granted].filter(([, run]) => !run).map(([id]) => id));
  return { hidden, seeOnly };
}
