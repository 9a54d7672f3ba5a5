import { z } from 'zod';
import { fields } from '../../http/validation.ts';

/**
 * The proof a user gives again before changing their own password or removing their own second
 * factor: the current password (local or LDAP) or a code from their authenticator app.
 * Semaphore has no such fields; `passcode` is the name `/api/auth/verify` already uses.
 */
export const reauthenticationFields = {
  current_password: z.string().max(1024, 'at most 1024 characters').optional(),
  passcode: z.string().max(64, 'at most 64 characters').optional(),
};

const username = z.string().trim().min(1, 'required').max(255, 'at most 255 characters')
  .regex(/^[^\s]+$/, 'must not contain spaces');
const email = z.string().trim().min(1, 'required').max(255, 'at most 255 characters')
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address');
const password = z.string().min(1, 'required').max(1024, 'at most 1024 characters');

/** Fields Semaphore's user object carries that clients may send back; read-only here. */
const readOnly = {
  id: z.number().int().optional(),
  created: z.string().optional(),
  pro: z.boolean().optional(),
  has_active_subscription: z.boolean().optional(),
};

/** `POST /api/users` and `signalbox user add`. */
export const userCreateSchema = z.strictObject({
  ...readOnly,
  name: fields.name,
  username,
  email,
  // Semaphore checks only username, email and name; an empty password means none (no password sign-in)
  password: z.string().max(1024, 'at most 1024 characters').optional(),
  alert: z.boolean().optional(),
  admin: z.boolean().optional(),
  external: z.boolean().optional(),
  can_create_project: z.boolean().optional(),
});

/** `PUT /api/users/{id}`; `external` is settable only at creation and is ignored here. */
export const userUpdateSchema = z.strictObject({
  ...readOnly,
  name: fields.name,
  username,
  email,
  alert: z.boolean().optional(),
  admin: z.boolean().optional(),
  external: z.boolean().optional(),
  can_create_project: z.boolean().optional(),
});

/** `POST /api/users/{id}/password`; changing one's own also needs the current password (or a TOTP code). */
export const passwordSchema = z.strictObject({ password, ...reauthenticationFields });

export type UserCreateInput = z.infer<typeof userCreateSchema>;
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;
