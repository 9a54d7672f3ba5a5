import { setTimeout as sleep } from 'node:timers/promises';
import { Secret, TOTP, URI } from 'otpauth';
import type { Db } from '../../src/server/db/database.ts';
import type { UserRow } from '../../src/server/db/schema.ts';
import type { SecretBox } from '../../src/server/crypto/secret-box.ts';
import type { TotpConfig } from '../../src/server/config/auth-config.ts';
import { enrolTotp, type UserTotp } from '../../src/server/auth/totp.ts';

/** A TOTP period: the server accepts the codes of this one and of one either side. */
const PERIOD_MS = 30_000;

/**
 * Enrols the user in TOTP as if they had confirmed it with a code a minute ago: the codes of
 * now and of the steps either side are still unused, so a test may sign in with any of them.
 */
export async function enrolConfirmedTotp(db: Db, user: UserRow, secrets: SecretBox, config: TotpConfig): Promise<UserTotp> {
  const enrolled = await enrolTotp(db, user, secrets, config);
  const aMinuteAgo = Math.floor(Date.now() / PERIOD_MS) - 2;
  await db.updateTable('user_totp').set({ last_step: aMinuteAgo }).where('id', '=', enrolled.id).execute();
  return enrolled;
}

/** The code an authenticator app shows for an `otpauth://` URL or a base32 secret, `steps` periods from now. */
export function totpCode(urlOrSecret: string, steps = 0): string {
  const totp = urlOrSecret.startsWith('otpauth:') ? URI.parse(urlOrSecret) as TOTP : new TOTP({ secret: Secret.fromBase32(urlOrSecret) });
  return totp.generate({ timestamp: Date.now() + steps * PERIOD_MS });
}

/**
 * The code of the step before this one, which leaves this step's code unused for what follows.
 * The server takes it only until the period turns (one step either side), so near a period's
 * end this first waits for the next period: the code then stays good for at least `marginMs`,
 * however slow the machine is at that moment.
 */
export async function previousStepCode(urlOrSecret: string, marginMs = 5_000): Promise<string> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < marginMs) await sleep(left + 50);
  return totpCode(urlOrSecret, -1);
}
