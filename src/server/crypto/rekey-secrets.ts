import type { Db } from '../db/database.ts';
import type { SecretBox } from './secret-box.ts';

export interface RekeyResult {
  /** secrets moved from the old key to the new one */
  rekeyed: number;
  /** secrets that already opened with the new key (an earlier run) */
  alreadyCurrent: number;
}

function reseal(sealed: string, from: SecretBox, to: SecretBox, what: string): string | null {
  try {
    return to.seal(from.open(sealed));
  } catch {
    try {
      to.open(sealed);
      return null;
    } catch {
      throw new Error(`${what} opens with neither the old nor the current key; nothing was changed`);
    }
  }
}

/**
 * Re-encrypts every sealed secret (access keys, variable-group passwords, two-factor secrets,
 * secret storage credentials, the JWT signing key) from `from` to `to`
 * in one transaction: either all move or none. Rows already sealed with `to` are left alone,
 * so running it twice is harmless.
 * @example await rekeySecrets(db, new SecretBox(oldKey), deps.secrets);
 */
export async function rekeySecrets(db: Db, from: SecretBox, to: SecretBox): Promise<RekeyResult> {
  return db.transaction().execute(async (tx) => {
    const result: RekeyResult = { rekeyed: 0, alreadyCurrent: 0 };
    const keys = await tx.selectFrom('access_key').select(['id', 'secret']).where('secret', 'is not', null).orderBy('id').execute();
    for (const key of keys) {
      const next = reseal(key.secret!, from, to, `access key ${key.id}`);
      if (next === null) result.alreadyCurrent++;
      else {
        await tx.updateTable('access_key').set({ secret: next }).where('id', '=', key.id).execute();
        result.rekeyed++;
      }
    }
    const groups = await tx.selectFrom('environment').select(['id', 'password']).where('password', 'is not', null).orderBy('id').execute();
    for (const group of groups) {
      if (!group.password) continue;
      const next = reseal(group.password, from, to, `variable group ${group.id} password`);
      if (next === null) result.alreadyCurrent++;
      else {
        await tx.updateTable('environment').set({ password: next }).where('id', '=', group.id).execute();
        result.rekeyed++;
      }
    }
    const enrolments = await tx.selectFrom('user_totp').select(['id', 'secret']).orderBy('id').execute();
    for (const totp of enrolments) {
      const next = reseal(totp.secret, from, to, `two-factor secret ${totp.id}`);
      if (next === null) result.alreadyCurrent++;
      else {
        await tx.updateTable('user_totp').set({ secret: next }).where('id', '=', totp.id).execute();
        result.rekeyed++;
      }
    }
    const storages = await tx.selectFrom('secret_storage').select(['id', 'secret']).where('secret', 'is not', null).orderBy('id').execute();
    for (const storage of storages) {
      const next = reseal(storage.secret!, from, to, `secret storage ${storage.id} credential`);
      if (next === null) result.alreadyCurrent++;
      else {
        await tx.updateTable('secret_storage').set({ secret: next }).where('id', '=', storage.id).execute();
        result.rekeyed++;
      }
    }
    const signing = await tx.selectFrom('option').select('value').where('key', '=', 'jwt_signing_key').executeTakeFirst();
    if (signing) {
      const next = reseal(signing.value, from, to, 'the JWT signing key');
      if (next === null) result.alreadyCurrent++;
      else {
        await tx.updateTable('option').set({ value: next }).where('key', '=', 'jwt_signing_key').execute();
        result.rekeyed++;
      }
    }
    return result;
  });
}
