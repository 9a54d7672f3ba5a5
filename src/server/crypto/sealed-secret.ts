import type { SecretBox } from './secret-box.ts';

/**
 * Seals a secret for a nullable text column: empty or missing values are stored as null so
 * "no secret" stays visible without decrypting anything.
 * @example row.secret = sealSecret(deps.secrets, JSON.stringify({ login, password }));
 */
export function sealSecret(box: SecretBox, plain: string | null | undefined): string | null {
  if (plain === null || plain === undefined || plain === '') return null;
  return box.seal(plain);
}

/**
 * Opens a sealed column value; null stays null. Throws when the value was sealed with another
 * key (callers that must survive that, such as rekey, catch it themselves).
 * @example const plain = openSecret(deps.secrets, row.secret);
 */
export function openSecret(box: SecretBox, sealed: string | null | undefined): string | null {
  if (sealed === null || sealed === undefined || sealed === '') return null;
  return box.open(sealed);
}
