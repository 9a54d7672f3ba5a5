import type { Server } from 'node:http';
import { createServer } from 'node:net';
import Provider from 'oidc-provider';

export const OIDC_CLIENT = { id: 'signalbox-test', secret: 'oidc-test-client-secret-3b8e' };

/** Accounts the provider knows: the login typed at its sign-in form picks one. */
export interface OidcAccount { email: string; name: string; preferred_username: string; groups: string[]; email_verified?: boolean }

export interface OidcProvider {
  issuer: string;
  stop: () => Promise<void>;
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * A real OpenID provider (npm `oidc-provider`) on a loopback port, with its development sign-in
 * and consent pages, one confidential client for `redirectUris`, and the given accounts (read at
 * each sign-in, so a test may change them; `sub` is the account's key).
 */
export async function startOidcProvider(port: number, redirectUris: string[], accounts: Record<string, OidcAccount>): Promise<OidcProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret, redirect_uris: redirectUris,
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    cookies: { keys: ['signalbox-test-cookie-key'] },
    findAccount: async (_ctx: unknown, id: string) => {
      const account = accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  const server: Server = provider.listen(port);
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return { issuer, stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
