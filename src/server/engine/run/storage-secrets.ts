import type { Db } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { openSecret } from '../../crypto/sealed-secret.ts';
import { connectionOf } from '../../domain/secret-storages/secret-storage.ts';
import { isExternalSourceType, KeySourceError, readKeySource, type SecretSourcesPolicy } from '../../domain/keys/key-source.ts';
import { parseSecretRef, readKvSecret, revokeLogin, StorageError, vaultLogin, type VaultConnection } from '../../domain/secret-storages/vault-client.ts';

/** A key row as the opener needs it. */
export interface SourcedKeyRow {
  id: number;
  type: string;
  secret: string | null;
  source_storage_id: number | null;
  source_storage_key: string | null;
  /** `env` / `file`: read from the server itself (see key-source.ts) */
  source_storage_type?: string | null;
}

/** A value a task needs could not be read: the task fails before it starts, with this one line. */
export class StorageReadError extends Error {}

/**
 * Opens access keys for a run: stored ones with the secret box, storage-backed ones by reading
 * `path#field` from their storage (signing in once per storage per run, with the task's JWT
 * when the storage says so). Values read are returned, never written anywhere.
 * @example const opener = new KeyOpener(db, box, jwt); const plain = await opener.plain(row);
 */
export class KeyOpener {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #jwt: string | null;
  readonly #sources: SecretSourcesPolicy;
  readonly #sessions = new Map<number, Promise<Session>>();

  /** `sources`: the admin's allow-list of server variables and directories (none: no such key opens) */
  constructor(db: Db, box: SecretBox, jwt: string | null, sources: SecretSourcesPolicy = { env: [], dirs: [] }) {
    this.#db = db;
    this.#box = box;
    this.#jwt = jwt;
    this.#sources = sources;
  }

  /** The key's plain secret text, as it would be stored (JSON for ssh / login_password keys). */
  async plain(row: SourcedKeyRow): Promise<string> {
    const stored = openSecret(this.#box, row.secret) ?? '';
    if (isExternalSourceType(row.source_storage_type)) return mergeIntoKey(row.type, stored, this.#fromServer(row.source_storage_type, row.source_storage_key ?? ''));
    if (row.source_storage_id === null || row.source_storage_id === undefined) return stored;
    const refText = row.source_storage_key ?? '';
    const session = await this.#session(row.source_storage_id);
    try {
      const ref = parseSecretRef(refText);
      if (!ref) throw new StorageError('the reference is not path#field');
      if (session.failure) throw session.failure;
      return mergeIntoKey(row.type, stored, await readKvSecret(session.connection!, session.token, ref));
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      throw new StorageReadError(`Secret storage ${session.name} could not give ${refText}: ${err.message}`);
    }
  }

  #fromServer(type: 'env' | 'file', ref: string): string {
    return readServerSource(this.#sources, type, ref);
  }

  /** Gives back the tokens this run signed in for (AppRole, JWT). */
  async close(): Promise<void> {
    for (const session of this.#sessions.values()) {
      const { connection, token } = await session.catch(() => ({ connection: undefined, token: '' }));
      if (connection && token) await revokeLogin(connection, token);
    }
  }

  /** Signs in to a storage once per run; a failure is kept and reported with each reference that needed it. */
  #session(storageId: number): Promise<Session> {
    let session = this.#sessions.get(storageId);
    if (!session) {
      session = (async (): Promise<Session> => {
        const row = await this.#db.selectFrom('secret_storage').selectAll().where('id', '=', storageId).executeTakeFirst();
        if (!row) return { name: `#${storageId}`, token: '', failure: new StorageError('the storage no longer exists') };
        const connection = connectionOf(this.#box, row);
        try {
          return { name: `"${row.name}"`, connection, token: await vaultLogin(connection, this.#jwt) };
        } catch (err) {
          if (!(err instanceof StorageError)) throw err;
          return { name: `"${row.name}"`, token: '', failure: new StorageError(`sign-in: ${err.message}`) };
        }
      })();
      this.#sessions.set(storageId, session);
    }
    return session;
  }
}

/**
 * A server variable or file, checked against the allow-list as it is now; a refusal or a
 * missing source is the task's one failure line.
 */
export function readServerSource(sources: SecretSourcesPolicy, type: 'env' | 'file', ref: string): string {
  try {
    return readKeySource(sources, type, ref);
  } catch (err) {
    if (!(err instanceof KeySourceError)) throw err;
    throw new StorageReadError(`Secret source ${type} ${ref} could not be read: ${err.message}`);
  }
}

interface Session {
  name: string;
  connection?: VaultConnection;
  token: string;
  failure?: StorageError;
}

/**
 * A value read from a storage laid into the key's secret: a whole secret (no field) gives its
 * fields by name; one field's value becomes the key's main part (password, private key, text),
 * the rest (login, passphrase) staying as stored.
 */
export function mergeIntoKey(type: string, stored: string, value: string | Record<string, unknown>): string {
  if (type === 'string' || type === 'none') return typeof value === 'string' ? value : String(value.value ?? JSON.stringify(value));
  let base: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(stored || '{}');
    if (parsed && typeof parsed === 'object') base = parsed as Record<string, unknown>;
  } catch { /* a legacy bare key: nothing to keep */ }
  if (typeof value !== 'string') return JSON.stringify({ ...base, ...value });
  return JSON.stringify({ ...base, [type === 'ssh' ? 'private_key' : 'password']: value });
}
