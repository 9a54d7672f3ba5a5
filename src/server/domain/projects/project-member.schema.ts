import { z } from 'zod';
import { fields } from '../../http/validation.ts';
import { PROJECT_ROLES } from '../../access/permissions.ts';

/** A built-in role or a custom role's slug; whether the project has it is checked on write (domain/roles). */
export const memberRoleField = z.string({ error: `must be one of ${PROJECT_ROLES.join(', ')}` }).max(40, `must be one of ${PROJECT_ROLES.join(', ')}`);

/** Fields of a member object that clients may send back; only `role` is used. */
const memberEcho = {
  id: z.number().int().optional(),
  name: z.string().optional(),
  username: z.string().optional(),
  email: z.string().optional(),
  created: z.string().optional(),
  admin: z.boolean().optional(),
  external: z.boolean().optional(),
  alert: z.boolean().optional(),
  pro: z.boolean().optional(),
};

/** Body of POST `/users` of a project (add a member). */
export const memberAddSchema = z.strictObject({ ...memberEcho, user_id: fields.id, role: memberRoleField });
/** Body of PUT `/users/{id}` of a project (change a member's role). */
export const memberRoleSchema = z.strictObject({ ...memberEcho, user_id: fields.id.optional(), role: memberRoleField });

