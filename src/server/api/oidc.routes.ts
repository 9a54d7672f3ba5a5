import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../http/context.ts';
import type { OidcProviderConfig } from '../config/auth-config.ts';
import { notFound } from '../http/errors.ts';
import { beginOidcSignIn, finishOidcSignIn, type OidcPending } from '../auth/oidc.ts';
import { provisionOidcUser, type OidcRefusal } from '../auth/external-users.ts';
import { openSession } from './auth.routes.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';

const STATE_COOKIE = 'oauthstate';
const STATE_COOKIE_PATH = '/api/auth/oidc';
const STATE_MAX_AGE_SECONDS = 600;
/** Where the user returns after sign-in: a same-origin path of plain segments, nothing else. */
const RETURN_PATH = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

/** `/api/auth/oidc/{id}/login` and `/api/auth/oidc/{id}/redirect[/{path}]`: sign-in through an OpenID provider. */
export const oidcRoutes = new Hono<AppEnv>();

oidcRoutes.get('/:provider_id/login', async (c) => {
  const { id, provider } = providerOf(c);
  const back = (c.req.query('redirect') ?? '').replace(/^\/+/, '');
  const returnPath = RETURN_PATH.test(back) ? back : '';
  try {
    const { url, pending } = await beginOidcSignIn(provider, redirectUri(c, id, provider, returnPath));
    setCookie(c, STATE_COOKIE, Buffer.from(JSON.stringify(pending)).toString('base64url'), {
      path: STATE_COOKIE_PATH, httpOnly: true, sameSite: 'Lax', maxAge: STATE_MAX_AGE_SECONDS, secure: apiClientFacts(c).https,
    });
    return c.redirect(url, 307);
  } catch (error) {
    return failed(c, id, error);
  }
});

oidcRoutes.get('/:provider_id/redirect', (c) => finish(c, ''));
oidcRoutes.get('/:provider_id/redirect/*', (c) => {
  const rest = c.req.path.replace(/^.*?\/redirect\//, '');
  return finish(c, RETURN_PATH.test(rest) ? rest : '');
});

async function finish(c: Context<AppEnv>, returnPath: string): Promise<Response> {
  const { id, provider } = providerOf(c);
  const pending = readPending(getCookie(c, STATE_COOKIE));
  deleteCookie(c, STATE_COOKIE, { path: STATE_COOKIE_PATH });
  if (!pending) return failed(c, id, new Error('no sign-in in progress (state cookie missing or expired)'));
  try {
    const callback = new URL(`${redirectUri(c, id, provider, returnPath)}${new URL(c.req.url).search}`);
    const identity = await finishOidcSignIn(provider, callback, pending);
    if (!identity) return failed(c, id, new Error('the provider sent no email claim'));
    const { db, config } = c.var.deps;
    const outcome = await provisionOidcUser(db, identity, { provider: `oidc:${id}`, subject: identity.subject }, identity.emailVerified, config.group_mappings, config.external_auth_email_matching);
    if ('refused' in outcome) return failed(c, id, new Error(REFUSALS[outcome.refused].reason), REFUSALS[outcome.refused].error);
    await openSession(c, outcome.user, 'oidc');
    return c.redirect(`/${returnPath}`, 307);
  } catch (error) {
    return failed(c, id, error);
  }
}

function providerOf(c: Context<AppEnv>): { id: string; provider: OidcProviderConfig } {
  const id = c.req.param('provider_id') ?? '';
  const provider = Object.hasOwn(c.var.deps.config.oidc_providers, id) ? c.var.deps.config.oidc_providers[id] : undefined;
  if (!provider) throw notFound();
  return { id, provider };
}

/** The configured redirect_url, else `<web_host>/api/auth/oidc/{id}/redirect`, plus the return path. */
function redirectUri(c: Context<AppEnv>, id: string, provider: OidcProviderConfig, returnPath: string): string {
  const base = provider.redirect_url || `${c.var.deps.config.web_host}/api/auth/oidc/${encodeURIComponent(id)}/redirect`;
  return returnPath ? `${base.replace(/\/+$/, '')}/${returnPath}` : base;
}

function readPending(cookie: string | undefined): OidcPending | null {
  if (!cookie) return null;
  try {
    const value = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')) as Partial<OidcPending>;
    return typeof value.state === 'string' && typeof value.verifier === 'string' && typeof value.nonce === 'string'
      ? { state: value.state, verifier: value.verifier, nonce: value.nonce } : null;
  } catch {
    return null;
  }
}

/**
 * An identity refused a user its email names: what the log says, and the sign-in page's
 * `error` (`oidc_unverified`, `oidc_linked` have their own message; a local account's email
 * gets the general one, so the page does not tell who has a local account).
 */
const REFUSALS: Record<OidcRefusal, { reason: string; error: string }> = {
  local_account: { reason: 'the email belongs to a local account', error: 'oidc' },
  unverified_email: { reason: 'the email belongs to an existing user and the provider has not verified it', error: 'oidc_unverified' },
  linked_elsewhere: { reason: 'the email belongs to a user linked to another identity (another provider or LDAP)', error: 'oidc_linked' },
  matching_off: { reason: 'the email belongs to an existing user not linked to this identity, and external_auth_email_matching is never', error: 'oidc' },
};

/** Every failure sends the browser back to the sign-in page; the details go to the log only. */
function failed(c: Context<AppEnv>, id: string, error: unknown, code = 'oidc'): Response {
  console.warn(`[oidc] sign-in through "${id}" failed: ${error instanceof Error ? error.message : String(error)}`);
  return c.redirect(`/auth/login?error=${code}`, 307);
}
