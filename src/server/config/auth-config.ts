import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PROJECT_ROLES, type ProjectRole } from '../access/permissions.ts';
import { ConfigError } from './config-error.ts';

/** Second factor, as Semaphore's `auth.totp` section. */
export interface TotpConfig {
  enabled: boolean;
  allow_recovery: boolean;
  issuer: string;
}

/** Semaphore's flat `ldap_*` settings, plus StartTLS and an optional group search. */
export interface LdapConfig {
  enable: boolean;
  server: string;
  needtls: boolean;
  starttls: boolean;
  tls_skip_verify: boolean;
  binddn: string;
  bindpassword: string;
  searchdn: string;
  searchfilter: string;
  mappings: { dn: string; mail: string; uid: string; cn: string; groups: string };
  /** when set, groups are also the entries under this DN matching the filter (`%s` = the user's DN) */
  group_searchdn: string;
  group_searchfilter: string;
}

export interface OidcProviderConfig {
  display_name: string;
  color: string;
  icon: string;
  provider_url: string;
  endpoint: { issuer: string; auth: string; token: string; userinfo: string; jwks: string; algorithms: string[] };
  client_id: string;
  client_secret: string;
  redirect_url: string;
  scopes: string[];
  username_claim: string;
  name_claim: string;
  email_claim: string;
  groups_claim: string;
  order: number;
}

/**
 * Semaphore's `auth.jwt` (JWT proxy authentication): the header an identity-aware proxy puts its
 * signed token in ('' = `X-Pomerium-Jwt-Assertion` or `Cf-Access-Jwt-Assertion`), the proxy's
 * JWKS, the `aud`/`iss` expected ('' = not checked) and the claims read.
 */
export interface ProxyAuthConfig {
  enabled: boolean;
  header: string;
  jwks_url: string;
  audience: string;
  issuer: string;
  email_claim: string;
  name_claim: string;
  username_claim: string;
  groups_claim: string;
}

/** The headers Pomerium and Cloudflare Access put their assertion in, read when no header is configured. */
export const WELL_KNOWN_ASSERTION_HEADERS = ['x-pomerium-jwt-assertion', 'cf-access-jwt-assertion'];

/** The header names this server reads an assertion from, lower-cased; none while proxy sign-in is off. */
export function assertionHeaders(config: ProxyAuthConfig): string[] {
  if (!config.enabled) return [];
  return config.header ? [config.header.toLowerCase()] : WELL_KNOWN_ASSERTION_HEADERS;
}

/**
 * The assertion a request carries, as `{ name, value }`, or null without one (or with proxy sign-in off).
 * @example proxyAssertion(config.proxy_auth, (n) => c.req.header(n))
 */
export function proxyAssertion(config: ProxyAuthConfig, header: (name: string) => string | undefined): { name: string; value: string } | null {
  for (const name of assertionHeaders(config)) {
    const value = header(name)?.trim();
    if (value) return { name, value };
  }
  return null;
}

/** One grant a group mapping gives its members in its project: a template or a view, seen (and with `run` started). */
export interface DirectoryGrant {
  template_id?: number;
  view_id?: number;
  run?: boolean;
}

/**
 * One rule: members of `group` become admins, or get `role` (or `custom_role`) in project
 * `project_id`, and there the template and view `grants` it names.
 */
export interface GroupMapping {
  group: string;
  admin?: boolean;
  project_id?: number;
  role?: ProjectRole;
  custom_role?: string;
  grants?: DirectoryGrant[];
}

const text = z.string().default('');

const oidcProviderSchema = z.object({
  display_name: text, color: text, icon: text, provider_url: text,
  endpoint: z.object({
    issuer: text, auth: text, token: text, userinfo: text, jwks: text, algorithms: z.array(z.string()).default([]),
  }).default({ issuer: '', auth: '', token: '', userinfo: '', jwks: '', algorithms: [] }),
  client_id: text, client_id_file: text, client_secret: text, client_secret_file: text,
  redirect_url: text,
  scopes: z.array(z.string()).default(['openid', 'profile', 'email']),
  username_claim: z.string().default('preferred_username'),
  name_claim: z.string().default('preferred_username'),
  email_claim: z.string().default('email'),
  groups_claim: z.string().default('groups'),
  order: z.number().int().default(0),
});

const groupMappingSchema = z.strictObject({
  group: z.string().min(1),
  admin: z.boolean().optional(),
  project_id: z.number().int().positive().optional(),
  role: z.enum(PROJECT_ROLES as [ProjectRole, ...ProjectRole[]]).optional(),
  /** a custom role of the project by its slug (issue 52); a slug the project lacks grants nothing */
  custom_role: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be a role slug: a-z, 0-9 and _').optional(),
  /** template or view grants in the project (issue 52 item 4); ids outside it grant nothing */
  grants: z.array(z.strictObject({
    template_id: z.number().int().positive().optional(), view_id: z.number().int().positive().optional(), run: z.boolean().optional(),
  }).refine((g) => (g.template_id === undefined) !== (g.view_id === undefined), 'each grant names template_id or view_id')).max(200).optional(),
}).refine((m) => !(m.role !== undefined && m.custom_role !== undefined), 'give role or custom_role, not both')
  .refine((m) => (m.project_id === undefined) === (m.role === undefined && m.custom_role === undefined), 'project_id and role go together')
  .refine((m) => m.admin !== undefined || m.project_id !== undefined, 'give admin, or project_id and role')
  .refine((m) => m.grants === undefined || m.project_id !== undefined, 'grants need project_id and role');

/**
 * Turns the raw `oidc_providers` object into checked providers; `*_file` secrets are read here,
 * so a missing file stops start-up rather than the first sign-in.
 */
export function readOidcProviders(raw: Record<string, unknown>, where: string): Record<string, OidcProviderConfig> {
  const providers: Record<string, OidcProviderConfig> = {};
  for (const [id, value] of Object.entries(raw)) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) throw new ConfigError(`${where}: provider id "${id}" may use only letters, digits, "_", "." and "-"`);
    const parsed = oidcProviderSchema.safeParse(value);
    if (!parsed.success) throw new ConfigError(`${where}.${id}: ${describe(parsed.error)}`);
    const { client_id_file, client_secret_file, ...provider } = parsed.data;
    provider.client_id = client_id_file ? readSecretFile(client_id_file, `${where}.${id}.client_id_file`) : provider.client_id;
    provider.client_secret = client_secret_file ? readSecretFile(client_secret_file, `${where}.${id}.client_secret_file`) : provider.client_secret;
    if (!provider.client_id) throw new ConfigError(`${where}.${id}: client_id is required`);
    if (!provider.provider_url && !provider.endpoint.auth) throw new ConfigError(`${where}.${id}: give provider_url or endpoint.auth/token/jwks`);
    providers[id] = { ...provider, display_name: provider.display_name || id };
  }
  return providers;
}

export function readGroupMappings(raw: unknown[], where: string): GroupMapping[] {
  return raw.map((item, i) => {
    const parsed = groupMappingSchema.safeParse(item);
    if (!parsed.success) throw new ConfigError(`${where}[${i}]: ${describe(parsed.error)}`);
    return parsed.data;
  });
}

function readSecretFile(path: string, where: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new ConfigError(`${where}: cannot read ${path}`);
  }
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

/**
 * Semaphore's `external_auth_email_matching`: `never` (the default here) signs in by a linked
 * identity only; `auto` lets an unlinked identity take an external user that has no linked
 * identity yet, by verified email (OIDC) or username/email (LDAP); `always` also one linked to
 * other providers. A local account is never taken.
 */
export const EMAIL_MATCHING = ['never', 'auto', 'always'] as const;
export type EmailMatching = (typeof EMAIL_MATCHING)[number];
