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

/**
 * The user for an identity the provider vouched for: found by email (OIDC) or by username or
 * email (LDAP), created as an external user on first sign-in. A local account with that name
 * is never taken over: the answer is null. Name and email follow the provider at each sign-in.
 */
export async function provisionExternalUser(db: Db, identity: ExternalIdentity, matchBy: 'email' | 'login', mappings: GroupMapping[]): Promise<UserRow | null> {
  return db.transaction().execute(async (tx) => {
    const found = await findMatch(tx, identity, matchBy);
    if (found && !found.external) return null;
    let user = found ?? await createExternal(tx, identity);
    if (found && (found.name !== identity.name || found.email !== identity.email)) {
      user = await tx.updateTable('user').set({ name: identity.name, email: identity.email }).where('id', '=', found.id).returningAll().executeTakeFirstOrThrow();
    }
    if (identity.groups) await applyGroupMappings(tx, user, identity.groups, mappings);
    return tx.selectFrom('user').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
  });
}

function findMatch(tx: Tx, identity: ExternalIdentity, matchBy: 'email' | 'login'): Promise<UserRow | undefined> {
  const email = identity.email.toLowerCase();
  const username = identity.username.toLowerCase();
  return tx.selectFrom('user').selectAll().where((eb) => (matchBy === 'email'
    ? eb(eb.fn('lower', ['email']), '=', email)
    : eb.or([eb(eb.fn('lower', ['username']), '=', username), eb(eb.fn('lower', ['email']), '=', email)])))
    .orderBy('id').executeTakeFirst();
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
