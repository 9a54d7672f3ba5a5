import type * as Oidc from 'openid-client';
import type { Config } from '../config/config.ts';
import type { OidcProviderConfig } from '../config/auth-config.ts';
import type { ExternalIdentity } from './external-users.ts';
import { randomUsername, readClaim, readGroups } from './oidc-claims.ts';
import { outgoingFetch } from '../lib/outgoing-http.ts';

/** openid-client, loaded at the first OIDC sign-in: servers without OIDC never pay its memory. */
const loadOidc = (): Promise<typeof Oidc> => import('openid-client');

/** What the browser keeps (in the `oauthstate` cookie) between leaving for the provider and coming back. */
export interface OidcPending {
  state: string;
  verifier: string;
  nonce: string;
}

/** The login buttons: `{id, name, color, icon}` sorted by `order`, then id. */
export function listOidcProviders(config: Config): Array<{ id: string; name: string; color: string; icon: string }> {
  return Object.entries(config.oidc_providers)
    .sort(([a, pa], [b, pb]) => pa.order - pb.order || a.localeCompare(b))
    .map(([id, p]) => ({ id, name: p.display_name, color: p.color, icon: p.icon }));
}

const discovered = new WeakMap<OidcProviderConfig, Promise<Oidc.Configuration>>();

/** Discovery (or the configured endpoints), once per provider; a failed discovery is retried next time. */
function clientFor(provider: OidcProviderConfig): Promise<Oidc.Configuration> {
  let found = discovered.get(provider);
  if (!found) {
    found = buildClient(provider);
    found.catch(() => discovered.delete(provider));
    discovered.set(provider, found);
  }
  return found;
}

async function buildClient(provider: OidcProviderConfig): Promise<Oidc.Configuration> {
  const oidc = await loadOidc();
  const auth = provider.client_secret ? oidc.ClientSecretBasic(provider.client_secret) : oidc.None();
  const plainHttp = (provider.provider_url || provider.endpoint.auth).startsWith('http:');
  // discovery, token, user info and keys all go through the one outgoing-HTTP client
  if (provider.provider_url) {
    return oidc.discovery(new URL(provider.provider_url), provider.client_id, undefined, auth, {
      [oidc.customFetch]: outgoingFetch, ...(plainHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  }
  const { endpoint } = provider;
  const client = new oidc.Configuration({
    issuer: endpoint.issuer, authorization_endpoint: endpoint.auth, token_endpoint: endpoint.token,
    userinfo_endpoint: endpoint.userinfo || undefined, jwks_uri: endpoint.jwks,
    id_token_signing_alg_values_supported: endpoint.algorithms.length ? endpoint.algorithms : undefined,
  }, provider.client_id, undefined, auth);
  client[oidc.customFetch] = outgoingFetch;
  if (plainHttp) oidc.allowInsecureRequests(client);
  return client;
}

/** The provider's authorization URL (code flow with PKCE, state and nonce) and what to remember. */
export async function beginOidcSignIn(provider: OidcProviderConfig, redirectUri: string): Promise<{ url: string; pending: OidcPending }> {
  const oidc = await loadOidc();
  const client = await clientFor(provider);
  const pending = { state: oidc.randomState(), verifier: oidc.randomPKCECodeVerifier(), nonce: oidc.randomNonce() };
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: redirectUri, scope: provider.scopes.join(' '), state: pending.state, nonce: pending.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier), code_challenge_method: 'S256',
  });
  return { url: url.href, pending };
}

/** Who the provider says signed in: the identity, its stable `sub`, and whether it verified the email. */
export interface OidcIdentity extends ExternalIdentity {
  subject: string;
  emailVerified: boolean;
}

/**
 * Exchanges the code the provider sent back (state, PKCE and nonce checked) and reads the
 * identity from the verified ID token, plus userinfo when the token lacks the email or whether
 * it is verified. Null when the provider names no email.
 */
export async function finishOidcSignIn(provider: OidcProviderConfig, callbackUrl: URL, pending: OidcPending): Promise<OidcIdentity | null> {
  const oidc = await loadOidc();
  const client = await clientFor(provider);
  const tokens = await oidc.authorizationCodeGrant(client, callbackUrl, {
    pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true,
  });
  let claims: Record<string, unknown> = { ...tokens.claims() };
  const incomplete = !readClaim(provider.email_claim, claims) || claims.email_verified === undefined;
  if (incomplete && client.serverMetadata().userinfo_endpoint) {
    claims = { ...claims, ...(await oidc.fetchUserInfo(client, tokens.access_token, String(claims.sub))) };
  }
  const email = readClaim(provider.email_claim, claims);
  if (!email) return null;
  return {
    email,
    username: readClaim(provider.username_claim, claims) || randomUsername(),
    name: readClaim(provider.name_claim, claims) || 'Anonymous',
    groups: readGroups(provider.groups_claim, claims),
    subject: String(claims.sub),
    // some providers send the boolean as a string
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
  };
}
