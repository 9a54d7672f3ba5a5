import type { Client, Entry } from 'ldapts';

/** ldapts, loaded at the first LDAP sign-in: servers without LDAP never pay its memory. */
const loadLdapts = (): Promise<typeof import('ldapts')> => import('ldapts');
import type { UserRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { LdapConfig } from '../config/auth-config.ts';
import { provisionDirectoryUser, type ExternalIdentity } from './external-users.ts';

const TIMEOUT_MS = 10_000;

/** RFC 4515: the login is data inside the filter, never filter syntax. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\u0000]/g, (ch) => `\\${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

async function openClient(ldap: LdapConfig): Promise<Client> {
  const { Client } = await loadLdapts();
  // ldapts speaks TLS from the start whenever tlsOptions are given, so only LDAPS gets them
  if (!ldap.needtls) return new Client({ url: `ldap://${ldap.server}`, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS });
  return new Client({
    url: `ldaps://${ldap.server}`, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS,
    tlsOptions: { rejectUnauthorized: !ldap.tls_skip_verify },
  });
}

/**
 * Semaphore's LDAP sign-in: bind as the service account, find exactly one entry for the login,
 * bind as that entry with the given password, then read its attributes and groups as the
 * service account. 'unknown' when the directory does not vouch for the login (no such entry,
 * or not this password): local accounts are tried next, with their own password. Null when the
 * directory vouches for a login that belongs to a local account, which it may not take over.
 */
export async function signInWithLdap(deps: Deps, login: string, password: string): Promise<UserRow | null | 'unknown'> {
  const vouched = await askDirectory(deps.config.ldap, login, password);
  if (vouched === 'unknown' || vouched === null) return vouched;
  return provisionDirectoryUser(deps.db, vouched, deps.config.group_mappings, deps.config.external_auth_email_matching);
}

/**
 * Whom the directory knows by this login and password, without signing anyone in: for linking
 * an LDAP identity to the signed-in account. 'unknown' for a wrong password or no such entry.
 */
export async function directoryIdentity(ldap: LdapConfig, login: string, password: string): Promise<ExternalIdentity | 'unknown'> {
  return (await askDirectory(ldap, login, password)) ?? 'unknown';
}

/**
 * The directory's part of the sign-in. Its failures (server unreachable, service bind refused)
 * are wrapped: a bare ECONNREFUSED would read as "the database is away" and answer 503 unlogged.
 */
async function askDirectory(ldap: LdapConfig, login: string, password: string): Promise<ExternalIdentity | null | 'unknown'> {
  const client = await openClient(ldap);
  try {
    if (ldap.starttls) await client.startTLS({ rejectUnauthorized: !ldap.tls_skip_verify, servername: ldap.server.split(':')[0] });
    await client.bind(ldap.binddn, ldap.bindpassword);
    const entry = await findEntry(client, ldap, login);
    if (!entry) return 'unknown';
    // an empty password would be an anonymous bind, which succeeds on most servers
    if (!password || !(await bindsAs(client, entry.dn, password))) return 'unknown';
    await client.bind(ldap.binddn, ldap.bindpassword);
    return await identityOf(client, ldap, entry);
  } catch (error) {
    throw new Error(`LDAP directory ${ldap.server}: ${(error as Error).message}`, { cause: error });
  } finally {
    await client.unbind().catch(() => {});
  }
}

async function findEntry(client: Client, ldap: LdapConfig, login: string): Promise<Entry | null> {
  const filter = ldap.searchfilter.replaceAll('%s', escapeFilterValue(login));
  const { searchEntries } = await client.search(ldap.searchdn, { scope: 'sub', filter, sizeLimit: 2 });
  return searchEntries.length === 1 ? searchEntries[0]! : null;
}

async function bindsAs(client: Client, dn: string, password: string): Promise<boolean> {
  try {
    await client.bind(dn, password);
    return true;
  } catch (error) {
    if (error instanceof (await loadLdapts()).InvalidCredentialsError) return false;
    throw error;
  }
}

function firstValue(entry: Entry, attribute: string): string {
  if (attribute.toLowerCase() === 'dn') return entry.dn;
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? '' : first.toString();
}

function allValues(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => v.toString());
}

/** Attributes per `ldap_mappings`; groups from the groups attribute and, when set, a group search. */
async function identityOf(client: Client, ldap: LdapConfig, entry: Entry): Promise<ExternalIdentity | null> {
  const { searchEntries } = await client.search(entry.dn, { scope: 'base', attributes: ['*', ldap.mappings.groups] });
  const full = searchEntries[0] ?? entry;
  const username = firstValue(full, ldap.mappings.uid).toLowerCase();
  const email = firstValue(full, ldap.mappings.mail);
  if (!username || !email) return null;
  const groups = allValues(full, ldap.mappings.groups);
  if (ldap.group_searchdn) {
    const filter = ldap.group_searchfilter.replaceAll('%s', escapeFilterValue(entry.dn));
    const found = await client.search(ldap.group_searchdn, { scope: 'sub', filter, attributes: ['dn'] });
    groups.push(...found.searchEntries.map((group) => group.dn));
  }
  return { username, name: firstValue(full, ldap.mappings.cn) || username, email, groups };
}
