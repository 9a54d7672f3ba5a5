import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import type { EmailMatching, GroupMapping } from '../config/auth-config.ts';
import { insertUser } from '../domain/users/user.repository.ts';
import { recordEvent } from '../domain/events/event.repository.ts';
import { now } from '../lib/time.ts';
import { applyGroupMappings } from './group-roles.ts';

/** Who an identity provider (LDAP or OIDC) says signed in. `groups` null: the provider tells none. */
export interface ExternalIdentity {
  username: string;
  name: string;
  email: string;
  groups: string[] | null;
}

/** How an identity provider names one of its identities for good: `oidc:<id>` or `ldap`, and its subject. */
export interface IdentityLink {
  provider: string;
  subject: string;
}

/** Why an identity may not sign in as the existing user its email (or LDAP login) names. */
export type OidcRefusal = 'local_account' | 'unverified_email' | 'linked_elsewhere' | 'matching_off';

/**
 * The user for an identity the directory (LDAP) vouched for: by its `ldap` link first (a local
 * account linked through `POST /api/user/identities/ldap` too); else, as `matching` allows, the
 * external user with that username or email; else a new external user. Null when an existing
 * user has that name or email and may not be taken (a local account is never taken).
 */
export async function provisionDirectoryUser(db: Db, identity: ExternalIdentity, mappings: GroupMapping[], matching: EmailMatching = 'never'): Promise<UserRow | null> {
  const link = { provider: 'ldap', subject: identity.username.toLowerCase() };
  return db.transaction().execute(async (tx) => {
    const linked = await linkedUser(tx, link);
    if (linked) return settleExternalUser(tx, linked, identity, mappings);
    const found = await tx.selectFrom('user').selectAll().where((eb) => eb.or([
      eb(eb.fn('lower', ['username']), '=', identity.username.toLowerCase()), eb(eb.fn('lower', ['email']), '=', identity.email.toLowerCase()),
    ])).orderBy('id').executeTakeFirst();
    if (found && await refusalFor(tx, found, link, true, matching)) return null;
    const user = await settleExternalUser(tx, found, identity, mappings);
    await linkIdentity(tx, user.id, link);
    return user;
  });
}

/**
 * The user for an identity an OpenID provider vouched for. An identity once linked signs in by
 * (provider, subject) alone. An unlinked one may take the external user its email names only
 * as `matching` allows and when the provider says the email is verified; without any such user
 * a new external user is created. The identity is linked either way, so the email never decides again.
 */
export async function provisionOidcUser(db: Db, identity: ExternalIdentity, link: IdentityLink, emailVerified: boolean, mappings: GroupMapping[], matching: EmailMatching = 'never'): Promise<{ user: UserRow } | { refused: OidcRefusal }> {
  return db.transaction().execute(async (tx) => {
    const linked = await linkedUser(tx, link);
    if (linked) return { user: await settleExternalUser(tx, linked, identity, mappings) };
    const found = await tx.selectFrom('user').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', identity.email.toLowerCase()))
      .orderBy('id').executeTakeFirst();
    const refused = found && await refusalFor(tx, found, link, emailVerified, matching);
    if (refused) return { refused };
    const user = await settleExternalUser(tx, found, identity, mappings);
    await linkIdentity(tx, user.id, link);
    return { user };
  });
}

function linkedUser(tx: Tx, link: IdentityLink): Promise<UserRow | undefined> {
  return tx.selectFrom('user').selectAll()
    .where('id', '=', (eb) => eb.selectFrom('external_identity').select('user_id').where('provider', '=', link.provider).where('subject', '=', link.subject))
    .executeTakeFirst();
}

/** `auto`: the user has no linked identity at all; `always`: none of this provider (one identity per provider and user). */
async function refusalFor(tx: Tx, user: UserRow, link: IdentityLink, verified: boolean, matching: EmailMatching): Promise<OidcRefusal | null> {
  if (!user.external) return 'local_account';
  if (matching === 'never') return 'matching_off';
  if (!verified) return 'unverified_email';
  let others = tx.selectFrom('external_identity').select('id').where('user_id', '=', user.id);
  if (matching === 'always') others = others.where('provider', '=', link.provider);
  return (await others.executeTakeFirst()) ? 'linked_elsewhere' : null;
}

/**
 * Creates the external user when there is none; name and email follow the provider at each
 * sign-in (the email only while no other user has it); memberships follow its groups.
 */
async function settleExternalUser(tx: Tx, found: UserRow | undefined, identity: ExternalIdentity, mappings: GroupMapping[]): Promise<UserRow> {
  const user = found ?? await createExternal(tx, identity);
  if (found && found.name !== identity.name) await tx.updateTable('user').set({ name: identity.name }).where('id', '=', found.id).execute();
  if (found && found.email !== identity.email && !(await emailTakenByOther(tx, identity.email, found.id))) {
    await tx.updateTable('user').set({ email: identity.email }).where('id', '=', found.id).execute();
  }
  if (identity.groups) await applyGroupMappings(tx, user, identity.groups, mappings);
  return tx.selectFrom('user').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
}

async function emailTakenByOther(tx: Tx, email: string, userId: number): Promise<boolean> {
  const other = await tx.selectFrom('user').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('id', '!=', userId).executeTakeFirst();
  return Boolean(other);
}

async function linkIdentity(tx: Tx, userId: number, link: IdentityLink): Promise<void> {
  await tx.insertInto('external_identity').values({ user_id: userId, provider: link.provider, subject: link.subject, created: now() })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing()).execute();
}

/** A username someone else already has gets a short random suffix rather than failing sign-in. */
async function createExternal(tx: Tx, identity: ExternalIdentity): Promise<UserRow> {
  const taken = await tx.selectFrom('user').select('id')
    .where((eb) => eb.or([eb(eb.fn('lower', ['username']), '=', identity.username.toLowerCase()), eb(eb.fn('lower', ['email']), '=', identity.username.toLowerCase())]))
    .executeTakeFirst();
  const username = taken ? `${identity.username}-${randomBytes(3).toString('hex')}` : identity.username;
  const user = await insertUser(tx, {
    created: now(), username, name: identity.name, email: identity.email, password: '', admin: 0, external: 1, alert: 0,
  });
  await recordEvent(tx, { projectId: null, userId: null, objectType: 'user', objectId: user.id, description: `User ID ${user.id} created` });
  return user;
}
