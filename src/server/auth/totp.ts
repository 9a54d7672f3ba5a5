import { Secret, TOTP } from 'otpauth';
import type { Db, Tx } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { TotpConfig } from '../config/auth-config.ts';
import { now } from '../lib/time.ts';
import { hashPassword, verifyPassword } from '../access/password.ts';

const PERIOD_SECONDS = 30;

/** A TOTP enrolment as the API shows it; `recovery_code` only in the answer that creates it. */
export interface UserTotp {
  id: number;
  created: string;
  user_id: number;
  url: string;
  recovery_code?: string;
}

interface TotpRow {
  id: number;
  user_id: number;
  created: string;
  secret: string;
  recovery_hash: string;
  last_step: number;
}

export function findTotp(db: Db | Tx, userId: number): Promise<TotpRow | undefined> {
  return db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * An enrolment counts (sign-in asks for a code, a code proves who one is) only once its first
 * code was accepted: until then nobody has shown that an authenticator app holds the secret.
 */
export function isConfirmed(row: TotpRow): boolean {
  return row.last_step > 0;
}

/** The user's enrolment when it is confirmed; a pending one is no second factor yet. */
export async function findConfirmedTotp(db: Db | Tx, userId: number): Promise<TotpRow | undefined> {
  const row = await findTotp(db, userId);
  return row && isConfirmed(row) ? row : undefined;
}

function generatorFor(secretBase32: string, user: UserRow, config: TotpConfig): TOTP {
  return new TOTP({
    issuer: config.issuer, label: user.username, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The enrolment with its `otpauth://` URL, which carries the secret: shown only to the user and admins. */
export function describeTotp(row: TotpRow, user: UserRow, secrets: SecretBox, config: TotpConfig): UserTotp {
  return { id: row.id, created: row.created, user_id: row.user_id, url: generatorFor(secrets.open(row.secret), user, config).toString() };
}

/**
 * Enrols the user: a fresh 160-bit secret (sealed) and a recovery code of 10 random bytes in
 * base32 (bcrypt-hashed). The enrolment is pending until its first code is confirmed; a
 * pending one is replaced, a confirmed one is kept (the unique user_id makes that a 409).
 */
export async function enrolTotp(db: Db | Tx, user: UserRow, secrets: SecretBox, config: TotpConfig): Promise<UserTotp> {
  await db.deleteFrom('user_totp').where('user_id', '=', user.id).where('last_step', '=', 0).execute();
  const secret = new Secret({ size: 20 }).base32;
  const recoveryCode = new Secret({ size: 10 }).base32;
  const row = await db.insertInto('user_totp').values({
    user_id: user.id, created: now(), secret: secrets.seal(secret), recovery_hash: await hashPassword(recoveryCode),
  }).returningAll().executeTakeFirstOrThrow();
  return { ...describeTotp(row, user, secrets, config), recovery_code: recoveryCode };
}

/**
 * The enrolment as `/api/users/{id}` shows it: no URL, since the URL carries the secret;
 * `pending` while its first code has not been confirmed.
 */
export function totpSummary(row: TotpRow): Omit<UserTotp, 'url'> & { pending?: true } {
  return { id: row.id, created: row.created, user_id: row.user_id, ...(isConfirmed(row) ? {} : { pending: true as const }) };
}

/**
 * Accepts a 6-digit code of the current step or one step either side, once: the accepted step
 * is recorded in the same statement that checks it, so two requests racing with one code
 * cannot both win.
 */
export async function acceptPasscode(db: Db, row: TotpRow, user: UserRow, passcode: string, secrets: SecretBox, config: TotpConfig): Promise<boolean> {
  if (!/^\d{6}$/.test(passcode)) return false;
  const delta = generatorFor(secrets.open(row.secret), user, config).validate({ token: passcode, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(Date.now() / 1000 / PERIOD_SECONDS) + delta;
  const result = await db.updateTable('user_totp').set({ last_step: step })
    .where('id', '=', row.id).where('last_step', '<', step).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A right recovery code removes the enrolment (two-factor is off until the user enrols again). */
export async function redeemRecoveryCode(db: Db, row: TotpRow, code: string): Promise<boolean> {
  const normalised = code.replace(/[\s-]/g, '').toUpperCase();
  if (!(await verifyPassword(normalised, row.recovery_hash))) return false;
  const result = await db.deleteFrom('user_totp').where('id', '=', row.id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteTotp(db: Db, userId: number, totpId: number): Promise<boolean> {
  const result = await db.deleteFrom('user_totp').where('id', '=', totpId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
