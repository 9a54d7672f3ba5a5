import type { Db } from '../../src/server/db/database.ts';
import type { UserRow } from '../../src/server/db/schema.ts';
import type { SecretBox } from '../../src/server/crypto/secret-box.ts';
import type { TotpConfig } from '../../src/server/config/auth-config.ts';
import { enrolTotp, type UserTotp } from '../../src/server/auth/totp.ts';

/**
 * Enrols the user in TOTP as if they had confirmed it with a code a minute ago: the codes of
 * now and of the steps either side are still unused, so a test may sign in with any of them.
 */
export async function enrolConfirmedTotp(db: Db, user: UserRow, secrets: SecretBox, config: TotpConfig): Promise<UserTotp> {
  const enrolled = await enrolTotp(db, user, secrets, config);
  const aMinuteAgo = Math.floor(Date.now() / 30_000) - 2;
  await db.updateTable('user_totp').set({ last_step: aMinuteAgo }).where('id', '=', enrolled.id).execute();
  return enrolled;
}
