import type { Db, Tx } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { openSecret } from '../../crypto/sealed-secret.ts';
import type { AccessKeyRow } from './access-key.ts';
import { ENVIRONMENT_KEY_OWNER, secretNameParts } from '../environments/environment.ts';

/** A decrypted key, for the task engine only; never put it in a response or a log line. */
export type KeySecret =
  | { type: 'none' }
  | { type: 'ssh'; login: string; passphrase: string; private_key: string }
  | { type: 'login_password'; login: string; password: string }
  | { type: 'string'; value: string };

/**
 * Opens a key row's secret into its typed parts. Legacy Semaphore rows holding a bare private
 * key (text that is not JSON) read as an ssh key; other text that is not JSON reads as empty.
 * @example const secret = readKeySecret(deps.secrets, row); if (secret.type === 'ssh') writeKeyFile(secret.private_key);
 */
export function readKeySecret(box: SecretBox, row: Pick<AccessKeyRow, 'type' | 'secret'>): KeySecret {
  const plain = openSecret(box, row.secret) ?? '';
  if (row.type === 'string') return { type: 'string', value: plain };
  if (row.type !== 'ssh' && row.type !== 'login_password') return { type: 'none' };
  const parsed = parseKeyText(row.type, plain);
  const text = (field: string) => (typeof parsed[field] === 'string' ? (parsed[field] as string) : '');
  if (row.type === 'ssh') return { type: 'ssh', login: text('login'), passphrase: text('passphrase'), private_key: text('private_key') };
  return { type: 'login_password', login: text('login'), password: text('password') };
}

/** The fields of a key's text; a legacy bare private key (not JSON) is an ssh key's, any other text none. */
function parseKeyText(type: 'ssh' | 'login_password', plain: string): Record<string, unknown> {
  if (type === 'ssh' && !plain.trimStart().startsWith('{')) return plain ? { private_key: plain } : {};
  try {
    const value: unknown = JSON.parse(plain);
    return value && typeof value === 'object' ? value as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

/**
 * The decrypted secrets of a variable group, split as tasks use them: `vars` join the extra
 * variables, `env` the process environment.
 * `open` is the secret box, or (for a run) a function that also reads storage-backed secrets.
 * @example const { vars, env } = await readEnvironmentSecrets(db, deps.secrets, template.environment_id);
 */
export async function readEnvironmentSecrets(db: Db | Tx, open: SecretBox | ((row: EnvironmentSecretRow) => Promise<string>), environmentId: number): Promise<{ vars: Record<string, string>; env: Record<string, string> }> {
  const rows = await db.selectFrom('access_key').select(['id', 'name', 'type', 'secret', 'source_storage_id', 'source_storage_key', 'source_storage_type']).where('environment_id', '=', environmentId)
    .where('owner', '=', ENVIRONMENT_KEY_OWNER).orderBy('id').execute();
  const out = { vars: {} as Record<string, string>, env: {} as Record<string, string> };
  for (const row of rows) {
    const { type, name } = secretNameParts(row.name);
    out[type === 'env' ? 'env' : 'vars'][name] = typeof open === 'function' ? await open(row) : openSecret(open, row.secret) ?? '';
  }
  return out;
}

/** A variable-group secret row; `source_storage_*` set when its value lives in a secret storage. */
export type EnvironmentSecretRow = Pick<AccessKeyRow, 'id' | 'name' | 'type' | 'secret' | 'source_storage_id' | 'source_storage_key' | 'source_storage_type'>;
