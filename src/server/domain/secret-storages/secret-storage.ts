import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { SecretStorageTable } from '../../db/schema.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { openSecret } from '../../crypto/sealed-secret.ts';
import { fields } from '../../http/validation.ts';
import { badRequest } from '../../http/errors.ts';
import { parseJsonObject } from '../../lib/json-object.ts';
import type { AuthMethod, VaultConnection } from './vault-client.ts';

export type SecretStorageRow = Selectable<SecretStorageTable>;

/** Storage types: both speak Vault's HTTP API (OpenBao is its open fork). */
export const STORAGE_TYPES = ['vault', 'openbao'] as const;
export const AUTH_METHODS = ['token', 'approle', 'jwt'] as const;

const paramsSchema = z.strictObject({
  url: z.string().trim().max(2048, 'at most 2048 characters').regex(/^https?:\/\/[^\s/]+/, 'use an http:// or https:// URL'),
  mount: z.string().trim().max(255).regex(/^[^\s#?]*$/, 'no spaces, # or ?').optional(),
  namespace: z.string().trim().max(255).optional(),
  kv_version: z.union([z.literal(2), z.literal('2')]).optional(),
  auth_method: z.enum(AUTH_METHODS).optional(),
  auth_mount: z.string().trim().max(255).regex(/^[^\s#?]*$/, 'no spaces, # or ?').optional(),
  role_id: z.string().max(255).optional(),
  role: z.string().max(255).optional(),
});

/** Body of POST/PUT `/secret_storages` (Semaphore's shape; `secret` is write-only: a token or AppRole secret id). */
export const secretStorageInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().nullable().optional(),
  name: fields.name,
  type: z.enum(STORAGE_TYPES).optional(),
  params: paramsSchema,
  readonly: z.boolean().optional(),
  secret: fields.text(8192).optional(),
  created: z.string().max(64).optional(),
});
export type SecretStorageInput = z.infer<typeof secretStorageInputSchema>;

export interface SecretStorage {
  id: number;
  project_id: number;
  name: string;
  type: string;
  params: Record<string, unknown>;
  readonly: boolean;
  /** whether a token / secret id is stored (never the value) */
  has_secret: boolean;
}

/** The row as the API shows it: params, never the credential. */
export function storageRowToStorage(row: SecretStorageRow): SecretStorage {
  return {
    id: row.id, project_id: row.project_id, name: row.name, type: row.type,
    params: parseJsonObject(row.params), readonly: Boolean(row.readonly), has_secret: Boolean(row.secret),
  };
}

/** Normalised params to store: defaults filled, checked per auth method. */
export function storedParams(input: SecretStorageInput): Record<string, string | number> {
  if (!input.type) throw badRequest('type: required; use vault or openbao');
  const p = input.params;
  const auth: AuthMethod = p.auth_method ?? 'token';
  if (auth === 'approle' && !p.role_id) throw badRequest('params.role_id: required for approle auth');
  if (auth === 'jwt' && !p.role) throw badRequest('params.role: required for jwt auth (the Vault role the task token signs in as)');
  return {
    url: p.url.replace(/\/+$/, ''), mount: (p.mount || 'secret').replace(/^\/+|\/+$/g, ''), namespace: p.namespace ?? '', kv_version: 2,
    auth_method: auth, auth_mount: (p.auth_mount || auth).replace(/^\/+|\/+$/g, ''), role_id: p.role_id ?? '', role: p.role ?? '',
  };
}

/** What the Vault client needs from a stored row, its credential opened. */
export function connectionOf(box: SecretBox, row: Pick<SecretStorageRow, 'params' | 'secret'>): VaultConnection {
  const p = parseJsonObject(row.params);
  const text = (key: string) => (typeof p[key] === 'string' ? (p[key] as string) : '');
  const auth = (AUTH_METHODS as readonly string[]).includes(text('auth_method')) ? (text('auth_method') as AuthMethod) : 'token';
  return {
    url: text('url'), mount: text('mount') || 'secret', namespace: text('namespace'), auth_method: auth,
    auth_mount: text('auth_mount') || auth, role_id: text('role_id'), role: text('role'), secret: openSecret(box, row.secret) ?? '',
  };
}
