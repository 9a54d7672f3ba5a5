import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import type { GroupMapping } from '../config/auth-config.ts';
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

/** Why an OIDC identity may not sign in as the user its email names. */
export type OidcRefusal = 'local_account' | 'unverified_email' | 'linked_elsewhere';

/**
 * The user for an identity the directory (LDAP) vouched for: found by username or email,
 * created as an external user on first sign-in, and linked as `ldap` so no OIDC provider can
 * take it over by email. A local account with that name is never taken over: the answer is null.
 */
export async function provisionDirectoryUser(db: Db, identity: ExternalIdentity, mappings: GroupMapping[]): Promise<UserRow | null> {
  return db.transaction().execute(async (tx) => {
    const found = await tx.selectFrom('user').selectAll().where((eb) => eb.or([
      eb(eb.fn('lower', ['username']), '=', identity.username.toLowerCase()), eb(eb.fn('lower', ['email']), '=', identity.email.toLowerCase()),
    ])).orderBy('id').executeTakeFirst();
    if (found && !found.external) return null;
    const user = await settleExternalUser(tx, found, identity, mappings);
    await linkIdentity(tx, user.id, { provider: 'ldap', subject: identity.username.toLowerCase() });
    return user;
  });
}

/**
 * The user for an identity an OpenID provider vouched for. An identity once linked signs in by
 * (provider, subject) alone. An unlinked one may take the external user its email names only
 * when the provider says the email is verified and that user is linked to nobody else (another
 * provider, another subject, LDAP); without any such user a new external user is created. The
 * identity is linked either way, so the email never decides again.
 */
export async function provisionOidcUser(db: Db, identity: ExternalIdentity, link: IdentityLink, emailVerified: boolean, mappings: GroupMapping[]): Promise<{ user: UserRow } | { refused: OidcRefusal }> {
  return db.transaction().execute(async (tx) => {
    const linked = await tx.selectFrom('user').selectAll()
      .where('id', '=', (eb) => eb.selectFrom('external_identity').select('user_id').where('provider', '=', link.provider).where('subject', '=', link.subject))
      .executeTakeFirst();
    if (linked) return { user: await settleExternalUser(tx, linked, identity, mappings) };
    const found = await tx.selectFrom('user').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', identity.email.toLowerCase()))
      .orderBy('id').executeTakeFirst();
    const refused = found && await refusalFor(tx, found, emailVerified);
    if (refused) return { refused };
    const user = await settleExternalUser(tx, found, identity, mappings);
    await linkIdentity(tx, user.id, link);
    return { user };
  });
}

async function refusalFor(tx: Tx, user: UserRow, emailVerified: boolean): Promise<OidcRefusal | null> {
  if (!user.external) return 'local_account';
  if (!emailVerified) return 'unverified_email';
  const other = await tx.selectFrom('external_identity').select('id').where('user_id', '=', user.id).executeTakeFirst();
  return other ? 'linked_elsewhere' : null;
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
