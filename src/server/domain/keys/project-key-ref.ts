import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import type { AccessKeyRow } from './access-key.ts';

/**
 * Checks that a key id given in a body names a key-store key of the same project (and, when
 * `type` is given, of that type); 400 naming the field otherwise.
 * @example await assertProjectKey(tx, projectId, input.become_key_id, 'become_key_id', 'login_password');
 */
export async function assertProjectKey(db: Db | Tx, projectId: number, keyId: number, field: string, type?: string): Promise<AccessKeyRow> {
  const key = await db.selectFrom('access_key').selectAll().where('id', '=', keyId)
    .where('project_id', '=', projectId).where('owner', '=', '').executeTakeFirst();
  if (!key) throw badRequest(`${field}: no such key in this project`);
  if (type && key.type !== type) throw badRequest(`${field}: must be a ${type} key`);
  return key;
}
