import { z } from 'zod';
import type { Selectable } from 'kysely';
import { sourceStorageType, sourceTypeOf, type AccessKeyRow } from '../keys/access-key.ts';
import type { EnvironmentTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';

export type EnvironmentRow = Selectable<EnvironmentTable>;

export const SECRET_TYPES = ['var', 'env'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

/** Owner marker of access_key rows that hold variable-group secrets. */
export const ENVIRONMENT_KEY_OWNER = 'environment';

const MAX_JSON = 1024 * 1024;

/** `json`/`env` arrive as JSON text (Semaphore's shape); an object is accepted and serialised. */
const jsonText = z.union([
  fields.text(MAX_JSON),
  z.record(z.string(), z.unknown()).transform((v) => JSON.stringify(v)),
]);

export const environmentSecretInputSchema = z.strictObject({
  // any integer: a create ignores it, as Semaphore does (its own API tests send -100000000)
  id: z.number().int().nullable().optional(),
  name: z.string().trim().max(255, 'at most 255 characters').optional(),
  type: z.enum(SECRET_TYPES).optional(),
  secret: fields.text(65535).optional(),
  operation: z.enum(['create', 'update', 'delete']).optional(),
  /** the value lives in this secret storage, at `source_storage_key` (`path#field`) */
  source_storage_id: fields.optionalId,
  source_storage_key: z.string().trim().max(1024, 'at most 1024 characters').nullable().optional(),
  /** `env` / `file`: read at task start from the server variable or file `source_storage_key` names */
  source_storage_type: sourceStorageType,
});
export type EnvironmentSecretInput = z.infer<typeof environmentSecretInputSchema>;

/** Body of POST/PUT `/environment`. */
export const environmentInputSchema = z.strictObject({
  id: z.number().int().optional(),
  name: fields.name,
  project_id: z.number().int().nullable().optional(),
  password: fields.text(65535).nullable().optional(),
  json: jsonText.optional(),
  env: jsonText.nullable().optional(),
  secrets: z.array(environmentSecretInputSchema).max(1000, 'at most 1000 secrets').optional(),
});
export type EnvironmentInput = z.infer<typeof environmentInputSchema>;

export interface EnvironmentSecret { id: number; name: string; type: SecretType; secret: string; source_storage_id: number | null; source_storage_key: string | null; source_storage_type: string | null }

export interface Environment {
  id: number;
  name: string;
  project_id: number;
  password: string;
  json: string;
  env: string | null;
  secrets: EnvironmentSecret[];
}

/**
 * Splits a secret key name `"<type>.<name>"` back into its parts.
 * @example secretNameParts('env.TOKEN') // { type: 'env', name: 'TOKEN' }
 */
export function secretNameParts(keyName: string): { type: SecretType; name: string } {
  const dot = keyName.indexOf('.');
  const type = keyName.slice(0, dot);
  return { type: type === 'env' ? 'env' : 'var', name: keyName.slice(dot + 1) };
}

/** Maps a row and its secret keys to the API shape; neither the password nor secret values leave. */
export function environmentRowToEnvironment(row: EnvironmentRow, secretKeys: AccessKeyRow[]): Environment {
  return {
    id: row.id, name: row.name, project_id: row.project_id, password: '', json: row.json, env: row.env,
    secrets: secretKeys.map((key) => ({ id: key.id, ...secretNameParts(key.name), secret: '', source_storage_id: key.source_storage_id ?? null, source_storage_key: key.source_storage_key ?? null, source_storage_type: sourceTypeOf(key) })),
  };
}
