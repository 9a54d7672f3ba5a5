import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { ApiError, badRequest, unauthorized } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { directoryIdentity } from '../auth/ldap.ts';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from '../auth/login-throttle.ts';
import { IDENTITY_TYPES, linkIdentityTo, listIdentities, unlinkIdentity } from '../domain/users/external-identities.ts';
import { loadTargetUser } from './users.routes.ts';

/** `/api/users/:user_id/identities`: a user's linked LDAP/OIDC identities; the user or an admin. */
export const userIdentitiesRoutes = new Hono<AppEnv>();

userIdentitiesRoutes.get('/', async (c) => {
  const user = await loadTargetUser(c);
  return c.json(await listIdentities(c.var.deps.db, user.id));
});

const typeParam = z.enum(IDENTITY_TYPES);
const providerParam = z.string().min(1).max(255);

userIdentitiesRoutes.delete('/:type/:provider', async (c) => {
  const user = await loadTargetUser(c);
  const type = typeParam.safeParse(c.req.param('type'));
  if (!type.success) throw badRequest('type: use ldap or oidc');
  const provider = providerParam.safeParse(c.req.param('provider'));
  if (!provider.success) throw badRequest('provider: 1 to 255 characters');
  await c.var.deps.db.transaction().execute((tx) => unlinkIdentity(tx, user, type.data, provider.data, c.var.user.id));
  return c.body(null, 204);
});

export const ldapLinkSchema = z.object({
  username: z.string().trim().min(1, 'required').max(255, 'at most 255 characters'),
  password: z.string().min(1, 'required').max(1024, 'at most 1024 characters'),
  /** Semaphore's multi-provider field; one directory here, named `ldap` */
  provider: z.string().max(255).optional(),
});

/** `/api/user/identities`: links an identity to the signed-in account. */
export const myIdentitiesRoutes = new Hono<AppEnv>();

/**
 * Proof is a bind with the directory password, throttled as sign-ins are; the entry must be
 * this account's (same username or email), so nobody links someone else's directory identity.
 */
myIdentitiesRoutes.post('/ldap', async (c) => {
  const input = await readJson(c, ldapLinkSchema);
  const { config, db } = c.var.deps;
  if (!config.ldap.enable) throw badRequest('LDAP sign-in is not enabled on this server');
  if (input.provider && input.provider !== 'ldap') throw badRequest('provider: no such LDAP provider; use ldap');
  const user = c.var.user;
  const account = `ldap-link:${input.username.toLowerCase()}`;
  const { address } = apiClientFacts(c);
  await checkLoginAllowed(db, account, address);
  const found = await directoryIdentity(config.ldap, input.username, input.password);
  if (found === 'unknown') {
    await recordLoginFailure(db, account, address);
    throw unauthorized();
  }
  await clearLoginFailures(db, account, address);
  const mine = found.username === user.username.toLowerCase() || found.email.toLowerCase() === user.email.toLowerCase();
  if (!mine) throw new ApiError('forbidden', 'the directory entry\'s username and email are not this account\'s');
  await db.transaction().execute((tx) => linkIdentityTo(tx, user.id, 'ldap', 'ldap', found.username, user.id));
  return c.body(null, 204);
});
