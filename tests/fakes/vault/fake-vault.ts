import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/**
 * A contract double of HashiCorp Vault / OpenBao's HTTP API (see README.md for the pages it
 * follows): KV version 2 reads and writes, token lookup-self, AppRole login, JWT login that
 * verifies the token against the issuer's JWKS (fetched over HTTP, as Vault's `jwks_url`
 * config does), sys/health. Tokens carry policies (path prefixes they may read); anything else
 * answers 403 `{"errors":["permission denied"]}`.
 * @example const vault = await startFakeVault(); vault.put('secret', 'ci/db', { password: 'x' }); ...; await vault.close();
 */
export interface FakeVault {
  url: string;
  /** every request: method, path, the token and namespace headers, body */
  requests: { method: string; path: string; token: string | undefined; namespace: string | undefined; body: unknown }[];
  /** writes a KV v2 secret (a new version) */
  put(mount: string, path: string, data: Record<string, unknown>): void;
  /** a token allowed to read paths under these `<mount>/data/<prefix>` policies */
  addToken(token: string, readPrefixes: string[]): void;
  addAppRole(roleId: string, secretId: string, readPrefixes: string[]): void;
  /** Vault's `auth/jwt/config` (jwks_url, bound_issuer) and `auth/jwt/role/<name>` */
  configureJwt(config: { jwks_url: string; bound_issuer: string }): void;
  addJwtRole(name: string, role: { bound_audiences: string[]; bound_claims: Record<string, string>; user_claim: string; readPrefixes: string[] }): void;
  /** stop answering (requests hang until the client gives up), or answer again */
  hang(on: boolean): void;
  /** tokens JWT logins verified, with their claims (as Vault keeps them as alias metadata) */
  jwtLogins: JWTPayload[];
  /** tokens given back with auth/token/revoke-self */
  revoked: string[];
  close(): Promise<void>;
}

interface KvEntry { versions: { data: Record<string, unknown>; created_time: string }[] }

export async function startFakeVault(): Promise<FakeVault> {
  const kv = new Map<string, KvEntry>();
  const tokens = new Map<string, { policies: string[]; readPrefixes: string[]; meta: Record<string, string> }>();
  const approles = new Map<string, { secretId: string; readPrefixes: string[] }>();
  const jwtRoles = new Map<string, { bound_audiences: string[]; bound_claims: Record<string, string>; user_claim: string; readPrefixes: string[] }>();
  let jwtConfig: { jwks_url: string; bound_issuer: string } | null = null;
  let hanging = false;
  const held: ServerResponse[] = [];
  const requests: FakeVault['requests'] = [];
  const jwtLogins: JWTPayload[] = [];
  const revoked: string[] = [];

  const envelope = (fields: Record<string, unknown>) => ({
    request_id: randomUUID(), lease_id: '', renewable: false, lease_duration: 0, data: null, wrap_info: null, warnings: null, auth: null, mount_type: '', ...fields,
  });
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const errors = (res: ServerResponse, status: number, ...messages: string[]) => send(res, status, { errors: messages });
  const issueToken = (policies: string[], readPrefixes: string[], meta: Record<string, string>) => {
    const token = `hvs.${randomUUID().replaceAll('-', '')}`;
    tokens.set(token, { policies, readPrefixes, meta });
    return envelope({
      auth: { client_token: token, accessor: randomUUID(), policies: ['default', ...policies], token_policies: ['default', ...policies], metadata: meta, lease_duration: 2764800, renewable: true, entity_id: randomUUID(), token_type: 'service', orphan: true },
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://vault');
    const path = decodeURIComponent(url.pathname);
    const tokenHeader = (req.headers['x-vault-token'] as string | undefined) ?? (req.headers.authorization?.replace(/^Bearer /, '') || undefined);
    const token = tokenHeader ? tokens.get(tokenHeader) : undefined;
    if (path === '/v1/sys/health') return send(res, 200, { initialized: true, sealed: false, standby: false, performance_standby: false, replication_performance_mode: 'disabled', replication_dr_mode: 'disabled', server_time_utc: Math.floor(Date.now() / 1000), version: '1.17.0', cluster_name: 'fake', cluster_id: 'fake' });
    let m = /^\/v1\/auth\/([^/]+)\/login$/.exec(path);
    if (m && req.method === 'POST') return login(m[1]!, body as Record<string, unknown>, res);
    if (path === '/v1/auth/token/lookup-self' && req.method === 'GET') {
      if (!token) return errors(res, 403, 'permission denied');
      return send(res, 200, envelope({ data: { id: tokenHeader, policies: ['default', ...token.policies], meta: token.meta, ttl: 2764800, type: 'service', renewable: true } }));
    }
    if (path === '/v1/auth/token/revoke-self' && req.method === 'POST') {
      if (!token) return errors(res, 403, 'permission denied');
      tokens.delete(tokenHeader!);
      revoked.push(tokenHeader!);
      return send(res, 204);
    }
    m = /^\/v1\/([^/]+)\/data\/(.+)$/.exec(path);
    if (m) {
      const [, mount, secretPath] = m;
      if (!token || !token.readPrefixes.some((p) => `${mount}/data/${secretPath}`.startsWith(p))) return errors(res, 403, 'permission denied');
      const key = `${mount}/${secretPath}`;
      if (req.method === 'POST' || req.method === 'PUT') {
        const data = (body as { data?: Record<string, unknown> })?.data;
        if (!data || typeof data !== 'object') return errors(res, 400, 'no data provided');
        put(mount!, secretPath!, data);
        const entry = kv.get(key)!;
        return send(res, 200, envelope({ data: { created_time: entry.versions.at(-1)!.created_time, custom_metadata: null, deletion_time: '', destroyed: false, version: entry.versions.length } }));
      }
      const entry = kv.get(key);
      // Vault answers a missing secret with 404 and an empty errors list
      if (!entry) return errors(res, 404);
      const version = entry.versions.length;
      const latest = entry.versions[version - 1]!;
      return send(res, 200, envelope({ data: { data: latest.data, metadata: { created_time: latest.created_time, custom_metadata: null, deletion_time: '', destroyed: false, version } }, mount_type: 'kv' }));
    }
    return errors(res, 404);
  }

  async function login(mount: string, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    if (mount === 'approle') {
      const role = approles.get(String(body?.role_id ?? ''));
      if (!role || role.secretId !== body?.secret_id) return errors(res, 400, 'invalid role or secret ID');
      return send(res, 200, issueToken(['approle-policy'], role.readPrefixes, { role_name: String(body.role_id) }));
    }
    if (mount === 'jwt') {
      if (!jwtConfig) return errors(res, 400, 'could not load configuration');
      const role = jwtRoles.get(String(body?.role ?? ''));
      if (!role) return errors(res, 400, `role "${String(body?.role ?? '')}" could not be found`);
      if (typeof body.jwt !== 'string' || !body.jwt) return errors(res, 400, 'missing token');
      let claims: JWTPayload;
      try {
        const jwks = createRemoteJWKSet(new URL(jwtConfig.jwks_url));
        ({ payload: claims } = await jwtVerify(body.jwt, jwks, { issuer: jwtConfig.bound_issuer, audience: role.bound_audiences.length ? role.bound_audiences : undefined, algorithms: ['ES256', 'RS256'] }));
      } catch (err) {
        return errors(res, 400, `error validating token: ${(err as Error).message}`);
      }
      for (const [claim, expected] of Object.entries(role.bound_claims)) {
        if (String(claims[claim]) !== expected) return errors(res, 400, `error validating claims: claim "${claim}" does not match any associated bound claim values`);
      }
      if (!claims[role.user_claim]) return errors(res, 400, `claim "${role.user_claim}" not found in token`);
      jwtLogins.push(claims);
      return send(res, 200, issueToken(['jwt-policy'], role.readPrefixes, { role: String(body.role) }));
    }
    return errors(res, 400, `no handler for route "auth/${mount}/login". route entry not found.`);
  }

  function put(mount: string, path: string, data: Record<string, unknown>): void {
    const key = `${mount}/${path}`;
    const entry = kv.get(key) ?? { versions: [] };
    entry.versions.push({ data, created_time: new Date().toISOString() });
    kv.set(key, entry);
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try { body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined; } catch { body = undefined; }
      requests.push({ method: req.method ?? '', path: req.url ?? '', token: req.headers['x-vault-token'] as string | undefined, namespace: req.headers['x-vault-namespace'] as string | undefined, body });
      if (hanging) {
        held.push(res);
        return;
      }
      handle(req, res, body).catch((err) => errors(res, 500, (err as Error).message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, requests, jwtLogins, revoked, put,
    addToken: (token, readPrefixes) => { tokens.set(token, { policies: ['reader'], readPrefixes, meta: {} }); },
    addAppRole: (roleId, secretId, readPrefixes) => { approles.set(roleId, { secretId, readPrefixes }); },
    configureJwt: (config) => { jwtConfig = config; },
    addJwtRole: (name, role) => { jwtRoles.set(name, role); },
    hang: (on) => {
      hanging = on;
      if (!on) for (const res of held.splice(0)) res.destroy();
    },
    close: () => new Promise<void>((resolve) => {
      for (const res of held.splice(0)) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
