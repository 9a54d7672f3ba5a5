import type { AstroGlobal } from 'astro';
import { routePermission } from '../server/access/route-permissions.ts';
import { templateGrantsInputSchema, type TemplateGrant } from '../server/domain/templates/template-grants.ts';
import { apiGet, apiSend, readErrorText } from './runner-api.ts';
import { mayManage } from './resource-pages.ts';
import type { ProjectRole, User } from './types.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response'>;

/**
 * "Who can run this" of the template dialog (issue 52 item 5): a section of the template form
 * whose values go to `PUT …/templates/{id}/grants` once the template is saved. Each role and
 * member is one select named `grant_role_<slug>` or `grant_user_<id>`: not listed, sees it,
 * or sees and runs it. Owners are not offered: grants never hide a template from them.
 */

/** How far a grant goes, as the select offers it ('' = not listed). */
export type GrantLevel = '' | 'see' | 'run';
export const GRANT_LEVELS: readonly GrantLevel[] = ['', 'see', 'run'];

/** The grants as the form carries them: `role:<slug>` or `user:<id>` → level, in the order read. */
export type GrantValues = string;

export interface GrantChoices {
  roles: { slug: string; name: string; builtin: boolean }[];
  members: { id: number; name: string; username: string; role: string }[];
}

const GRANTS_ROUTE = 'PUT /api/project/:project_id/templates/:template_id/grants';
const FIELD = /^grant_(role|user)_([a-z0-9_]{1,40})$/;

/** Whether the caller may set a template's grants: the bit the grants route needs (route table), or admin. */
export function mayGrant(user: User | undefined, role: ProjectRole): boolean {
  return mayManage(user, role, routePermission(GRANTS_ROUTE));
}

export const grantField = (key: string) => `grant_${key.replace(':', '_')}`;

/** The API's grants as the form's value. */
export function grantValuesOf(grants: readonly TemplateGrant[]): GrantValues {
  return grants.map((g) => `${g.role !== null ? `role:${g.role}` : `user:${g.user_id}`}=${g.run ? 'run' : 'see'}`).join(',');
}

/** The posted selects as the form's value; anything but a known level is dropped. */
export function readGrantValues(form: FormData): GrantValues {
  const chosen: string[] = [];
  for (const [name, value] of form.entries()) {
    const match = FIELD.exec(name);
    if (!match || (value !== 'see' && value !== 'run')) continue;
    chosen.push(`${match[1]}:${match[2]}=${value}`);
  }
  return chosen.join(',');
}

/** Key (`role:<slug>`, `user:<id>`) → level of the form's value. */
export function grantLevels(values: GrantValues): Map<string, GrantLevel> {
  return new Map(values.split(',').filter(Boolean).map((entry) => {
    const [key, level] = entry.split('=');
    return [key!, level === 'run' ? 'run' : 'see'];
  }));
}

/** The body of `PUT …/grants` for the form's value. */
export function grantsBody(values: GrantValues) {
  return {
    grants: [...grantLevels(values)].map(([key, level]) => {
      const [kind, name] = key.split(':') as [string, string];
      const who = kind === 'role' ? { role: name } : { user_id: /^\d{1,10}$/.test(name) ? Number(name) : name };
      return { ...who, run: level === 'run' };
    }),
  };
}

/** The first refusal of the grants schema for the form's value, or ''. */
export function grantsError(values: GrantValues): string {
  const parsed = templateGrantsInputSchema.safeParse(grantsBody(values));
  return parsed.success ? '' : parsed.error.issues[0]?.message ?? 'invalid';
}

/** The roles (but owner) and members (but owners) the section offers, and the template's grants (none for a new one). */
export async function loadGrantChoices(astro: AstroLike, projectId: number, templateId: number | null): Promise<{ choices: GrantChoices; grants: TemplateGrant[] }> {
  const base = `/api/project/${projectId}`;
  const [roles, members, stored] = await Promise.all([
    apiGet<GrantChoices['roles']>(astro, `${base}/roles`),
    apiGet<GrantChoices['members']>(astro, `${base}/users`),
    templateId ? apiGet<{ grants: TemplateGrant[] }>(astro, `${base}/templates/${templateId}/grants`) : { grants: [] },
  ]);
  return {
    choices: {
      roles: roles.filter((r) => r.slug !== 'owner').map(({ slug, name, builtin }) => ({ slug, name, builtin })),
      members: members.filter((m) => m.role !== 'owner').map(({ id, name, username, role }) => ({ id, name, username, role })),
    },
    grants: stored.grants,
  };
}

/**
 * Writes the grants after the template was saved, when they changed; answers the API's refusal
 * text ('' when written or unchanged).
 */
export async function saveGrants(astro: AstroLike, projectId: number, templateId: number, values: GrantValues, before: GrantValues): Promise<string> {
  if (sameGrants(values, before)) return '';
  const res = await apiSend(astro, 'PUT', `/api/project/${projectId}/templates/${templateId}/grants`, grantsBody(values));
  return res.ok ? '' : readErrorText(res);
}

function sameGrants(a: GrantValues, b: GrantValues): boolean {
  const left = grantLevels(a);
  const right = grantLevels(b);
  return left.size === right.size && [...left].every(([key, level]) => right.get(key) === level);
}
