import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { ProjectRoleTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';
import { ALL_PERMISSIONS, Permission } from '../../access/permissions.ts';

/** A role's slug as `project_user.role` holds it: lower case, digits and `_`. */
const ROLE_SLUG = /^[a-z][a-z0-9_]{0,39}$/;
export const roleSlugField = z.string().trim().regex(ROLE_SLUG, 'must start with a letter and hold only a-z, 0-9 and _ (at most 40)');

/** Body of POST/PUT `/api/project/{id}/roles`; the slug is fixed once made (members name it). */
export const roleInputSchema = z.object({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  slug: roleSlugField.optional().meta({ description: 'What members\' `role` holds; made from the name when left out' }),
  name: fields.name.optional(),
  permissions: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or greater')
    .refine((bits) => (bits & ~ALL_PERMISSIONS) === 0, `only the bits in ${ALL_PERMISSIONS} are known`).optional()
    .meta({ description: 'Permission bits: 1 run tasks, 2 update project, 4 manage resources, 8 manage users, 16 see templates, 32 edit inventories, 64 edit variable groups, 128 manage keys, 256 manage schedules, 512 approve workflow gates, 1024 read the audit log' }),
});
export type RoleInput = z.infer<typeof roleInputSchema>;

export type RoleRow = Selectable<ProjectRoleTable>;

/** A role as the API lists it; Semaphore's four come first, with `builtin` and no id. */
export interface Role {
  id: number | null;
  slug: string;
  name: string;
  permissions: number;
  builtin: boolean;
  /** a server-wide role (an admin's, /api/roles): held here, changed there */
  server: boolean;
}

/** A slug made from a role's name: `Deploy Ops` → `deploy_ops`. */
export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^[^a-z]+|_+$/g, '').slice(0, 40);
}

/** Roles a project may copy in one step: the Operator runs tasks and edits inventories (issue 52). */
export const ROLE_PRESETS: { slug: string; name: string; permissions: number }[] = [
  { slug: 'operator', name: 'Operator', permissions: Permission.RunTasks | Permission.EditInventories | Permission.ViewTemplates },
];
