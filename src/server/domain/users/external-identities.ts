import type { Db, Tx } from '../../db/database.ts';
import type { UserRow } from '../../db/schema.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';

/**
 * The identities of other providers linked to a user (Semaphore 2.20's
 * `user__external_identity`), on its wire shape: `type` `ldap` / `oidc`, `provider` (`ldap`, or
 * the key in `oidc_providers`), `external_uid` (the OIDC `sub`, the LDAP login). Stored here as
 * `provider` `oidc:<key>` / `ldap` and `subject`.
 */
export interface ExternalIdentityLink {
  id: number;
  user_id: number;
  type: 'ldap' | 'oidc';
  provider: string;
  external_uid: string;
  created: string;
}

export const IDENTITY_TYPES = ['ldap', 'oidc'] as const;
export type IdentityType = (typeof IDENTITY_TYPES)[number];

/** The stored provider of a (type, provider) pair: `ldap`, or `oidc:<key>`. */
export function storedProvider(type: IdentityType, provider: string): string {
  return type === 'ldap' ? provider : `oidc:${provider}`;
}

function toLink(row: { id: number; user_id: number; provider: string; subject: string; created: string }): ExternalIdentityLink {
  const oidc = row.provider.startsWith('oidc:');
  return { id: row.id, user_id: row.user_id, type: oidc ? 'oidc' : 'ldap', provider: oidc ? row.provider.slice(5) : row.provider, external_uid: row.subject, created: row.created };
}

/** A user's linked identities, oldest first. */
export async function listIdentities(db: Db | Tx, userId: number): Promise<ExternalIdentityLink[]> {
  const rows = await db.selectFrom('external_identity').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  return rows.map(toLink);
}

/**
 * Removes one link. An external user keeps at least one (it has no password to sign in with):
 * removing its last answers 409; an admin may delete the user instead.
 */
export async function unlinkIdentity(tx: Tx, user: UserRow, type: IdentityType, provider: string, actorId: number): Promise<void> {
  const stored = storedProvider(type, provider);
  const row = await tx.selectFrom('external_identity').select(['id', 'subject']).where('user_id', '=', user.id).where('provider', '=', stored).executeTakeFirst();
  if (!row) throw notFound();
  const count = await tx.selectFrom('external_identity').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
  if (user.external && Number(count.n) <= 1) throw new ApiError('conflict', 'an external user cannot remove its last linked identity; an admin may delete the user instead');
  await tx.deleteFrom('external_identity').where('id', '=', row.id).execute();
  await recordEvent(tx, { projectId: null, userId: actorId, objectType: 'user', objectId: user.id, description: `User ID ${user.id} unlinked from ${type} ${provider}` });
}

/**
 * Links an identity to a user by hand. The same link again changes nothing; a subject linked to
 * another user, or a second identity of the same provider, answers 409 (unlink first).
 */
export async function linkIdentityTo(tx: Tx, userId: number, type: IdentityType, provider: string, subject: string, actorId: number): Promise<void> {
  if (!subject) throw badRequest('external_uid: the provider named no identity');
  const stored = storedProvider(type, provider);
  const holder = await tx.selectFrom('external_identity').select('user_id').where('provider', '=', stored).where('subject', '=', subject).executeTakeFirst();
  if (holder?.user_id === userId) return;
  if (holder) throw new ApiError('conflict', `this ${type} identity is linked to another user`);
  const own = await tx.selectFrom('external_identity').select('id').where('user_id', '=', userId).where('provider', '=', stored).executeTakeFirst();
  if (own) throw new ApiError('conflict', `this user already has a ${type} identity of ${provider}; unlink it first`);
  await tx.insertInto('external_identity').values({ user_id: userId, provider: stored, subject, created: now() }).execute();
  await recordEvent(tx, { projectId: null, userId: actorId, objectType: 'user', objectId: userId, description: `User ID ${userId} linked to ${type} ${provider}` });
}
