import type { Db } from '../../../../src/server/db/database.ts';
import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const storage = () => ({ name: 'Vault', type: 'vault', params: { url: 'http://127.0.0.1:9', auth_method: 'token' }, secret: 'hvs.bad-input' });
const fields = { name: 'string', type: 'string', params: 'object', secret: 'string' } as const;

/** A secret storage (nothing answers at its URL) for the storage writes. */
export async function prepareSecretStorages(db: Db, { w }: BadInputContext): Promise<Record<string, number>> {
  const row = await db.insertInto('secret_storage').values({
    project_id: w.projectId, name: 'Existing', type: 'vault', params: JSON.stringify({ url: 'http://127.0.0.1:9', auth_method: 'token' }), readonly: 1, secret: null, created: new Date().toISOString(),
  }).returning('id').executeTakeFirstOrThrow();
  return { storage: row.id };
}

/** POST/PUT of secret storages: params checked field by field, the credential required for token and approle sign-in. */
export const SECRET_STORAGE_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/project/{id}/secret_storages', path: (x) => `${p(x)}/secret_storages`, valid: storage, fields, maxLength: { secret: 8192 },
    extra: () => [
      ['a URL that is not http(s)', { ...storage(), params: { url: 'file:///etc/passwd' } }],
      ['an unknown auth method', { ...storage(), params: { url: 'http://127.0.0.1:9', auth_method: 'kerberos' } }],
      ['approle without a role id', { ...storage(), params: { url: 'http://127.0.0.1:9', auth_method: 'approle' } }],
      ['jwt without a role', { ...storage(), params: { url: 'http://127.0.0.1:9', auth_method: 'jwt' } }],
      ['token auth without a token', { ...storage(), secret: undefined }],
      ['a storage type that is not built', { ...storage(), type: 'aws_secrets_manager' }],
    ],
  },
  { route: 'PUT /api/project/{id}/secret_storages/{s}', path: (x) => `${p(x)}/secret_storages/${x.more.storage}`, valid: storage, fields, maxLength: { secret: 8192 } },
];
