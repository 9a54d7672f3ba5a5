import { z } from 'zod';
import type { ProjectInviteRow, UserRow } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';
import { userRowToUser, type User } from '../users/user.ts';
import { memberRoleField } from '../projects/project-member.schema.ts';

/**
 * Body of `POST /project/{id}/invites` (Semaphore's `ProjectInviteRequest`): `email` or `user_id`,
 * a role (built-in or one of the project's own, checked on write), an optional expiry.
 */
export const inviteInputSchema = z.strictObject({
  email: z.string().trim().max(255, 'at most 255 characters').regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address').optional(),
  user_id: fields.id.optional(),
  role: memberRoleField,
  expires_at: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date-time').optional(),
});
export type InviteInput = z.infer<typeof inviteInputSchema>;

/** Body of `PUT /project/{id}/invites/{invite_id}`. */
export const inviteStatusSchema = z.strictObject({ status: z.enum(['pending', 'declined', 'expired'], { message: 'must be pending, declined or expired' }) });

/** Body of `POST /invites/accept` and `/invites/decline` (Semaphore's `AcceptInviteRequest`). */
export const inviteTokenSchema = z.strictObject({ token: z.string().min(1, 'required').max(200, 'at most 200 characters') });

/** Invitations last a week unless the request says otherwise (as in Semaphore). */
export const DEFAULT_INVITE_DAYS = 7;
/** The longest an invitation may wait: a forgotten one should not stand for years. */
export const MAX_INVITE_DAYS = 30;

/** A pending invite whose expiry has passed reads as expired. */
export function inviteStatus(row: ProjectInviteRow, at = Date.now()): string {
  return row.status === 'pending' && row.expires_at !== null && Date.parse(row.expires_at) <= at ? 'expired' : row.status;
}

/** An invitation as the API shows it (Semaphore's `ProjectInvite`), never its token. */
export function inviteRowToInvite(row: ProjectInviteRow, users: Map<number, UserRow>) {
  const userOf = (id: number | null): User | undefined => (id !== null && users.has(id) ? userRowToUser(users.get(id)!) : undefined);
  return {
    id: row.id, project_id: row.project_id, user_id: row.user_id ?? undefined, email: row.email ?? undefined, role: row.role,
    status: inviteStatus(row), inviter_user_id: row.inviter_user_id ?? undefined, created: row.created,
    expires_at: row.expires_at ?? undefined, accepted_at: row.accepted_at ?? undefined,
    inviter_user: userOf(row.inviter_user_id), user: userOf(row.user_id),
  };
}
export type ProjectInvite = ReturnType<typeof inviteRowToInvite>;
