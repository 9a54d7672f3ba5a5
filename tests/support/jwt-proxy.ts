import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';

export const PROXY_ISSUER = 'https://auth.proxy.test';
export const PROXY_AUDIENCE = 'https://signalbox.proxy.test';
const KID = 'proxy-key-1';

/** What a test proxy signs: the claims, and what it may get wrong on purpose. */
export interface AssertionOptions {
  claims: JWTPayload;
  issuer?: string;
  audience?: string;
  /** seconds from now; negative for a token already expired */
  expiresIn?: number;
}

/**
 * An identity-aware proxy for tests: an ES256 key of its own, its JWKS served over HTTP on a
 * loopback port (`jwksUrl`), and the tokens it (or a stranger) would put in its header.
 */
export interface JwtProxy {
  jwksUrl: string;
  /** how many times the JWKS was fetched */
  fetches: () => number;
  sign: (options: AssertionOptions) => Promise<string>;
  /** the same token signed by another key that claims the proxy's key id */
  signWithStrangerKey: (options: AssertionOptions) => Promise<string>;
  /** the same token with `alg: none` and no signature */
  unsigned: (options: AssertionOptions) => string;
  stop: () => Promise<void>;
}

export async function startJwtProxy(): Promise<JwtProxy> {
  const own = await generateKeyPair('ES256');
  const stranger = await generateKeyPair('ES256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(own.publicKey)), kid: KID, alg: 'ES256', use: 'sig' }] });
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== '/.well-known/pomerium/jwks.json') return void res.writeHead(404).end();
    fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const build = (o: AssertionOptions) => {
    const now = Math.floor(Date.now() / 1000);
    return { now, claims: { ...o.claims, iss: o.issuer ?? PROXY_ISSUER, aud: o.audience ?? PROXY_AUDIENCE, iat: now, exp: now + (o.expiresIn ?? 300) } };
  };
  const signWith = async (key: CryptoKey, o: AssertionOptions) => new SignJWT(build(o).claims).setProtectedHeader({ alg: 'ES256', kid: KID }).sign(key);
  return {
    jwksUrl: `http://127.0.0.1:${port}/.well-known/pomerium/jwks.json`,
    fetches: () => fetches,
    sign: (o) => signWith(own.privateKey, o),
    signWithStrangerKey: (o) => signWith(stranger.privateKey, o),
    unsigned: (o) => new UnsecuredJWT(build(o).claims).encode(),
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The settings that put a server behind the proxy. */
export function proxySettings(proxy: JwtProxy, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SEMAPHORE_JWT_AUTH_ENABLED: 'true', SEMAPHORE_JWT_AUTH_JWKS_URL: proxy.jwksUrl,
    SEMAPHORE_JWT_AUTH_ISSUER: PROXY_ISSUER, SEMAPHORE_JWT_AUTH_AUDIENCE: PROXY_AUDIENCE, ...extra,
  };
}
