import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { AccessKeyTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';
import { badRequest } from '../../http/errors.ts';
import { EXTERNAL_SOURCE_TYPES, isExternalSourceType } from './key-source.ts';

export type AccessKeyRow = Selectable<AccessKeyTable>;

/** Key types the key store accepts; environment secrets use the internal type `string`. */
export const KEY_TYPES = ['none', 'ssh', 'login_password'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

const secretText = fields.text(65535);
export const sourceStorageType = z.enum(['vault', ...EXTERNAL_SOURCE_TYPES]).nullable().optional();

/** Body of POST/PUT `/keys`; read-only fields a client echoes back are accepted and ignored. */
export const accessKeyInputSchema = z.strictObject({
  id: z.number().int().optional(),
  name: fields.name,
  type: z.enum(KEY_TYPES).optional(),
  project_id: z.number().int().nullable().optional(),
  override_secret: z.boolean().optional(),
  string: secretText.optional(),
  login_password: z.strictObject({ login: fields.text(255).optional(), password: secretText.optional() }).nullable().optional(),
  ssh: z.strictObject({ login: fields.text(255).optional(), passphrase: secretText.optional(), private_key: secretText.optional() }).nullable().optional(),
  empty: z.boolean().optional(),
  owner: z.string().max(32).optional(),
  environment_id: z.number().int().nullable().optional(),
  user_id: z.number().int().nullable().optional(),
  created: z.string().max(64).optional(),
  /** the value lives in this secret storage, at `source_storage_key` (`path#field`) */
  source_storage_id: fields.optionalId,
  source_storage_key: z.string().trim().max(1024, 'at most 1024 characters').nullable().optional(),
  /** Semaphore's names: `env` / `file` read the server variable or file `source_storage_key` names; `vault` a storage */
  source_storage_type: sourceStorageType,
});
export type AccessKeyInput = z.infer<typeof accessKeyInputSchema>;

/** The wire shape: secret parts are always empty strings, the API never decrypts. */
export interface AccessKey {
  id: number;
  name: string;
  type: string;
  project_id: number;
  string: string;
  login_password: { login: string; password: string };
  ssh: { login: string; passphrase: string; private_key: string };
  override_secret: boolean;
  empty?: boolean;
  source_storage_id: number | null;
  source_storage_key: string | null;
  source_storage_type: string | null;
}

/**
 * Maps a row to the API shape without any secret; lists also say whether a secret is stored.
 * @example c.json(rows.map((r) => accessKeyRowToKey(r, { listed: true })));
 */
export function accessKeyRowToKey(row: AccessKeyRow, options: { listed?: boolean } = {}): AccessKey {
  const key: AccessKey = {
    id: row.id,
    name: row.name,
    type: row.type,
    project_id: row.project_id,
    string: '',
    login_password: { login: '', password: '' },
    ssh: { login: '', passphrase: '', private_key: '' },
    override_secret: false,
    source_storage_id: row.source_storage_id ?? null,
    source_storage_key: row.source_storage_key ?? null,
    source_storage_type: sourceTypeOf(row),
  };
  if (options.listed && !row.secret && sourceTypeOf(row) === null) key.empty = true;
  return key;
}

/** Where a key's value comes from: `vault` (a storage), `env`, `file`, or null when stored here. */
export function sourceTypeOf(row: Pick<AccessKeyRow, 'source_storage_id' | 'source_storage_type'>): string | null {
  if (row.source_storage_id != null) return 'vault';
  return isExternalSourceType(row.source_storage_type) ? row.source_storage_type : null;
}

/**
 * The plain secret to seal for a key input (JSON as Semaphore stores it), or null for `none`.
 * Validates the type-specific required parts.
 * @example const plain = secretOfKeyInput('ssh', input); // '{"login":"","passphrase":"","private_key":"..."}'
 */
export function secretOfKeyInput(type: KeyType, input: AccessKeyInput): string | null {
  // from a storage: the stored part is what the reference does not give (the login, a passphrase)
  if (input.source_storage_id != null || isExternalSourceType(input.source_storage_type)) {
    if (type === 'none') throw badRequest(`${input.source_storage_id != null ? 'source_storage_id' : 'source_storage_type'}: a key of type none holds nothing to read`);
    const login = (type === 'ssh' ? input.ssh?.login : input.login_password?.login) ?? '';
    return JSON.stringify(type === 'ssh' ? { login, passphrase: input.ssh?.passphrase ?? '' } : { login });
  }
  if (type === 'ssh') {
    const ssh = input.ssh ?? {};
    if (!ssh.private_key?.trim()) throw badRequest('ssh.private_key: required for an ssh key');
    return JSON.stringify({ login: ssh.login ?? '', passphrase: ssh.passphrase ?? '', private_key: ssh.private_key });
  }
  if (type === 'login_password') {
    const lp = input.login_password ?? {};
    if (!lp.password) throw badRequest('login_password.password: required for a login_password key');
    return JSON.stringify({ login: lp.login ?? '', password: lp.password });
  }
  return null;
}
